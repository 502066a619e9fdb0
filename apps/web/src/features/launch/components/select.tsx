import type { ComponentProps } from "react";

export function Select({ className = "", ...props }: ComponentProps<"select">) {
  return (
    <select
      className={`w-full rounded-sm border border-line-strong bg-ink px-3 py-2 text-fg focus:border-accent focus:outline-none ${className}`}
      {...props}
    />
  );
}
