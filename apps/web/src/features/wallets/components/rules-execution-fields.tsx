import { Input } from "../../../components/ui/input.tsx";
import type { ExecutionDraft } from "../utils/rule-form.ts";
import { Labelled } from "./rules-trigger-fields.tsx";

/**
 * How a firing's sales go out: over how many blocks, how many wallets a block, with random
 * jitter between waves or not, and each sale's slippage (a percent here, basis points sent).
 */
export function RulesExecutionFields({
  execution,
  onChange,
}: {
  execution: ExecutionDraft;
  onChange: (next: ExecutionDraft) => void;
}) {
  const set = (patch: Partial<ExecutionDraft>) => onChange({ ...execution, ...patch });
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-xs text-dim">How the sales go out</legend>
      <div className="flex flex-wrap items-end gap-3">
        <Labelled label="Spread over blocks">
          {(id) => (
            <Input
              id={id}
              className="max-w-24 py-1"
              inputMode="numeric"
              value={execution.spreadBlocks}
              onChange={(e) => set({ spreadBlocks: e.target.value })}
            />
          )}
        </Labelled>
        <Labelled label="Wallets per block">
          {(id) => (
            <Input
              id={id}
              className="max-w-24 py-1"
              inputMode="numeric"
              value={execution.maxWalletsPerBlock}
              onChange={(e) => set({ maxWalletsPerBlock: e.target.value })}
            />
          )}
        </Labelled>
        <Labelled label="Slippage %">
          {(id) => (
            <Input
              id={id}
              className="max-w-24 py-1"
              inputMode="decimal"
              value={execution.slippage}
              onChange={(e) => set({ slippage: e.target.value })}
            />
          )}
        </Labelled>
        <label className="flex items-center gap-2 pb-1 text-xs text-dim">
          <input
            type="checkbox"
            className="accent-accent"
            checked={execution.jitter}
            onChange={(e) => set({ jitter: e.target.checked })}
          />
          Random jitter between blocks
        </label>
      </div>
      <p className="text-xs text-faint">
        Each sale reverts rather than fetch less than its simulated proceeds less{" "}
        {execution.slippage.trim()}%.
      </p>
    </fieldset>
  );
}
