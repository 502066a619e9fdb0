import type { ReactNode } from "react";

/** A label above its control, with an optional hint and the field's error underneath. */
export function Field({
  label,
  error,
  hint,
  children,
  className = "",
}: {
  label: string;
  error?: string | null;
  hint?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <span className="text-xs uppercase tracking-wide text-dim">{label}</span>
      {children}
      {hint && !error && <span className="text-xs text-faint">{hint}</span>}
      {error && (
        <span role="alert" className="text-xs text-bad">
          {error}
        </span>
      )}
    </div>
  );
}
