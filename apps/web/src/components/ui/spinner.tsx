/** A small terminal-style busy indicator. */
export function Spinner({ className = "" }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-block size-3 animate-spin rounded-full border border-dim border-t-accent ${className}`}
    />
  );
}
