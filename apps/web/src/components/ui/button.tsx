import type { ComponentProps } from "react";

const VARIANTS = {
  primary:
    "border border-accent bg-accent px-4 py-2 font-semibold text-ink hover:bg-accent/90 disabled:border-line-strong disabled:bg-raised disabled:text-dim",
  secondary:
    "border border-line-strong bg-raised px-4 py-2 text-fg hover:border-accent hover:text-accent disabled:text-faint disabled:hover:border-line-strong",
  /** Bracketed text control, as the spec writes them: [back], [logout]. */
  bracket: "px-0 py-0 text-dim hover:text-accent disabled:text-faint",
} as const;

export interface ButtonProps extends ComponentProps<"button"> {
  variant?: keyof typeof VARIANTS;
  /** Shown instead of the label while an action runs; the button is disabled meanwhile. */
  busyLabel?: string;
  busy?: boolean;
}

export function Button({
  variant = "primary",
  busy = false,
  busyLabel,
  className = "",
  disabled,
  children,
  type = "button",
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      className={`inline-flex items-center justify-center gap-2 rounded-sm transition-colors disabled:cursor-not-allowed ${VARIANTS[variant]} ${className}`}
      {...props}
    >
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}
