import { ANTI_BUBBLEMAPS_HOPS, type DispersalChain } from "@bundler/shared";
import { formatBnb } from "../../../lib/bnb.ts";
import { shortAddress } from "../../../lib/short-address.ts";
import { type ChainState, chainState, hopPercent } from "../utils/dispersal-status.ts";
import { ProgressBar } from "./progress-bar.tsx";

const STATE_TONES: Record<ChainState, string> = {
  Completed: "text-ok",
  Failed: "text-bad",
  Processing: "text-accent",
};

/** One destination's route: its state, final wallet, amount and hops done out of 9. */
export function ChainCard({ chain, index }: { chain: DispersalChain; index: number }) {
  const state = chainState(chain);
  const hop = chain.completed ? ANTI_BUBBLEMAPS_HOPS : chain.currentHop;
  return (
    <li
      data-testid="chain-card"
      data-state={state.toLowerCase()}
      className="flex flex-col gap-1.5 rounded-sm border border-line bg-ink px-3 py-2 text-xs"
    >
      <div className="flex items-baseline justify-between gap-2">
        <span className="font-semibold text-fg">Chain {index + 1}</span>
        <span className={STATE_TONES[state]}>{state}</span>
      </div>
      <div className="flex items-baseline justify-between gap-2">
        <span className="text-dim" title={chain.finalWallet}>
          {shortAddress(chain.finalWallet)}
        </span>
        <span className="text-fg" title={`${chain.amount} BNB`}>
          {formatBnb(chain.amount)} BNB
        </span>
      </div>
      <div className="flex items-center gap-2">
        <span className="shrink-0 tabular-nums text-faint">
          Hop {hop}/{ANTI_BUBBLEMAPS_HOPS}
        </span>
        <ProgressBar
          percent={hopPercent(chain)}
          label={`Chain ${index + 1} hops`}
          tone={chain.completed ? "ok" : chain.failed ? "bad" : "accent"}
          className="h-1"
        />
      </div>
    </li>
  );
}
