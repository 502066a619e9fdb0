import type { PnlKind, PnlLine } from "@bundler/shared";
import { bnbOfWei, usdOfWei, weiOf } from "../utils/pnl-money.ts";

const KIND_LABELS: Partial<Record<PnlKind, string>> = {
  "create-fee": "Creation fee",
  tip: "Builder tips",
  "launch-fee": "Launch fee",
  "dispersal-cost": "Dispersal (hop gas and fee, pro rata)",
  gas: "Gas paid by the deployer or tip payer",
  "trading-fee": "Trading fees",
};

interface Group {
  kind: PnlKind;
  label: string;
  wei: bigint;
  count: number;
}

/** The shared lines summed by kind, in the order they first appear. */
export function groupLines(lines: readonly PnlLine[]): Group[] {
  const groups = new Map<PnlKind, Group>();
  for (const line of lines) {
    const group = groups.get(line.kind) ?? {
      kind: line.kind,
      label: KIND_LABELS[line.kind] ?? line.kind,
      wei: 0n,
      count: 0,
    };
    group.wei += weiOf(line.wei);
    group.count += 1;
    groups.set(line.kind, group);
  }
  return [...groups.values()];
}

/**
 * What the bundle cost beyond its wallets' own rows: paid by the deployer, the tip payer, the
 * platform's launch fee and the disperser. Part of the total cost, in no wallet's row.
 */
export function PnlCostLines({
  lines,
  bnbUsd,
}: {
  lines: readonly PnlLine[];
  bnbUsd: number | null;
}) {
  const groups = groupLines(lines);
  return (
    <div className="flex flex-col gap-1 text-xs">
      <h3 className="text-faint">Shared costs (in the total, in no wallet's row)</h3>
      {groups.length === 0 ? (
        <p className="text-dim">None.</p>
      ) : (
        <ul className="flex flex-col gap-1">
          {groups.map((group) => (
            <li
              key={group.kind}
              className="flex flex-wrap justify-between gap-x-3"
              data-testid="pnl-line"
              data-kind={group.kind}
            >
              <span className="text-dim">
                {group.label}
                {group.count > 1 ? ` (${group.count})` : ""}
              </span>
              <span className="tabular-nums text-fg">
                {bnbOfWei(group.wei)}
                {bnbUsd !== null && (
                  <span className="text-dim"> · {usdOfWei(group.wei, bnbUsd)}</span>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
