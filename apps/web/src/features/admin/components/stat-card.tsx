import type { ReactNode } from "react";

/** One figure of the dashboard, with the smaller figures that break it down. */
export function StatCard({
  label,
  value,
  children,
  testId,
}: {
  label: string;
  value: string;
  children?: ReactNode;
  testId: string;
}) {
  return (
    <div
      className="flex flex-col gap-1 rounded-md border border-line bg-panel/80 p-4"
      data-testid={testId}
    >
      <span className="text-xs uppercase tracking-wide text-faint">{label}</span>
      <span className="text-2xl tabular-nums text-fg" data-testid={`${testId}-value`}>
        {value}
      </span>
      {children && <div className="flex flex-col text-xs text-dim">{children}</div>}
    </div>
  );
}
