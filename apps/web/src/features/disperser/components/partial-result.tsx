import type { Dispersal } from "@bundler/shared";
import { chainProgress } from "../utils/dispersal-status.ts";

/** The orange verdict of a dispersal where some destinations were paid and some were not. */
export function PartialResult({ dispersal }: { dispersal: Dispersal }) {
  const progress = chainProgress(dispersal.chains);
  const unit = dispersal.antiBubblemaps ? "chains" : "wallets";
  return (
    <div
      role="status"
      data-testid="dispersal-partial"
      className="flex flex-col gap-1 rounded-sm border border-orange-400/50 bg-orange-400/10 px-3 py-3 text-orange-300"
    >
      <p className="font-semibold">Dispersal partially completed</p>
      <p className="text-xs">
        <span className="tabular-nums">
          {progress.completed}/{progress.total}
        </span>{" "}
        {unit} successful; what the others held went back to the funder.
      </p>
    </div>
  );
}
