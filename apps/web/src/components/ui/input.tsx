import type { ComponentProps } from "react";

export function Input({ className = "", ...props }: ComponentProps<"input">) {
  return (
    <input
      className={`w-full rounded-sm border border-line-strong bg-ink px-3 py-2 text-fg placeholder:text-faint focus:border-accent focus:outline-none ${className}`}
      {...props}
    />
  );
}
