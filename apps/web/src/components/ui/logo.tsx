/** The mark: four BNB-style diamonds bundled together, plus the wordmark with a cursor. */
export function Logo({ size = "md" }: { size?: "md" | "lg" }) {
  const mark = size === "lg" ? "size-16" : "size-6";
  return (
    <span className={`inline-flex items-center ${size === "lg" ? "flex-col gap-4" : "gap-2"}`}>
      <svg viewBox="0 0 32 32" className={`${mark} text-accent`} aria-hidden="true">
        <g fill="currentColor">
          <path d="M16 4l4.5 4.5L16 13l-4.5-4.5z" />
          <path d="M8.5 11.5L13 16l-4.5 4.5L4 16z" />
          <path d="M23.5 11.5L28 16l-4.5 4.5L19 16z" />
          <path d="M16 19l4.5 4.5L16 28l-4.5-4.5z" />
        </g>
        <path d="M16 13.6l2.4 2.4-2.4 2.4-2.4-2.4z" fill="currentColor" opacity="0.45" />
      </svg>
      <span
        className={`font-semibold tracking-tight text-fg ${size === "lg" ? "text-2xl" : "text-sm"}`}
      >
        launch<span className="text-accent">::</span>bundler
        <span className="animate-blink text-accent" aria-hidden="true">
          _
        </span>
      </span>
    </span>
  );
}
