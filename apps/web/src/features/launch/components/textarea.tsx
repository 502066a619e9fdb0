import type { ComponentProps } from "react";

export function TextArea({ className = "", ...props }: ComponentProps<"textarea">) {
  return (
    <textarea
      className={`w-full rounded-sm border border-line-strong bg-ink px-3 py-2 text-fg placeholder:text-faint focus:border-accent focus:outline-none ${className}`}
      {...props}
    />
  );
}
