/** A thin bar filled to `percent`; `label` names it for screen readers. */
export function ProgressBar({
  percent,
  label,
  tone = "accent",
  className = "h-1.5",
}: {
  percent: number;
  label: string;
  tone?: "accent" | "ok" | "bad";
  className?: string;
}) {
  const value = Math.round(Math.min(Math.max(percent, 0), 100));
  const fill = { accent: "bg-accent", ok: "bg-ok", bad: "bg-bad" }[tone];
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      className={`w-full overflow-hidden rounded-full bg-line ${className}`}
    >
      <div
        className={`h-full ${fill} transition-[width] duration-500`}
        style={{ width: `${value}%` }}
      />
    </div>
  );
}
