import type { Dispersal } from "@bundler/shared";
import { type TerminalLine, TerminalLog } from "../../../components/ui/terminal-log.tsx";
import { chainProgress } from "../utils/dispersal-status.ts";
import { ChainCard } from "./chain-card.tsx";
import { DispersalRefunds } from "./dispersal-refunds.tsx";
import { ProgressBar } from "./progress-bar.tsx";

/** An anti bubblemaps dispersal under way: chains done, each chain's hops, the live log. */
export function ChainsProgress({
  dispersal,
  lines,
  explorerUrl,
  live,
}: {
  dispersal: Dispersal;
  lines: readonly TerminalLine[];
  explorerUrl: string | null;
  /** Whether a heading and the overall bar are shown (not on a finished dispersal). */
  live: boolean;
}) {
  const progress = chainProgress(dispersal.chains);
  return (
    <div className="flex flex-col gap-4" data-testid="dispersal-chains">
      {live && (
        <div className="flex flex-col gap-2">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h3 className="font-semibold text-fg">Processing Anti Bubblemaps Dispersal</h3>
            <span className="text-xs text-dim" data-testid="chains-completed">
              <span className="tabular-nums text-fg">
                {progress.completed}/{progress.total}
              </span>{" "}
              chains completed
            </span>
          </div>
          <ProgressBar percent={progress.percent} label="Chains completed" />
        </div>
      )}
      <ul className="grid max-h-64 gap-2 overflow-y-auto sm:grid-cols-2">
        {dispersal.chains.map((chain, index) => (
          <ChainCard key={chain.finalWallet} chain={chain} index={index} />
        ))}
      </ul>
      <DispersalRefunds refunds={dispersal.refunds} explorerUrl={explorerUrl} />
      <div className="flex flex-col gap-1">
        <h3 className="text-xs text-dim">Transaction Log</h3>
        <TerminalLog
          lines={lines}
          explorerUrl={explorerUrl}
          label="Transaction Log"
          className="h-44"
        />
      </div>
    </div>
  );
}
