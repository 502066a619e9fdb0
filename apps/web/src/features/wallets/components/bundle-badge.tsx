import type { Bundle } from "@bundler/shared";

/** Where the token trades: the DEX once it graduated (and has a trade URL), else the launchpad. */
export function BundleBadge({ bundle }: { bundle: Pick<Bundle, "graduated" | "tradeUrl"> }) {
  const onDex = bundle.graduated && bundle.tradeUrl !== null;
  return (
    <span
      data-testid="bundle-badge"
      className={`shrink-0 rounded-sm border px-2 py-0.5 text-xs ${
        onDex ? "border-ok/60 text-ok" : "border-accent/60 text-accent"
      }`}
    >
      {onDex ? "DEX" : "Launchpad"}
    </span>
  );
}
