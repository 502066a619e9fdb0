import { Button } from "../../../components/ui/button.tsx";
import { Section } from "../../../components/ui/section.tsx";
import type { SellAmountState } from "../hooks/use-sell-amount.ts";
import type { SellOptionsState } from "../hooks/use-sell-options.ts";
import { sellAmountValue } from "../utils/sell-amount.ts";
import { SellAmountControls } from "./sell-amount-controls.tsx";
import { SellOptionsControls } from "./sell-options-controls.tsx";

/** "Sell Tokens": sells the amount from every selected wallet, with a floor, by the route chosen. */
export function SellTokensPanel({
  state,
  options,
  ticker,
  selectedCount,
  busy,
  onSell,
}: {
  state: SellAmountState;
  options: SellOptionsState;
  ticker: string;
  selectedCount: number;
  busy: boolean;
  onSell: () => void;
}) {
  const ready =
    selectedCount > 0 && sellAmountValue(state.amount) !== null && options.slippageBps !== null;
  return (
    <Section title="Sell Tokens">
      <SellAmountControls state={state} label="Sell amount" ticker={ticker} />
      <SellOptionsControls options={options} />
      <Button disabled={!ready} busy={busy} busyLabel="selling..." onClick={onSell}>
        [sell tokens]
      </Button>
      {selectedCount === 0 && <p className="text-xs text-faint">Select wallets to sell from.</p>}
    </Section>
  );
}
