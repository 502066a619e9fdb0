import { Button } from "../../../components/ui/button.tsx";
import { Section } from "../../../components/ui/section.tsx";
import type { SellAmountState } from "../hooks/use-sell-amount.ts";
import { sellAmountValue } from "../utils/sell-amount.ts";
import { SellAmountControls } from "./sell-amount-controls.tsx";

/** "Sell Tokens": sells the amount from every selected wallet. */
export function SellTokensPanel({
  state,
  ticker,
  selectedCount,
  busy,
  onSell,
}: {
  state: SellAmountState;
  ticker: string;
  selectedCount: number;
  busy: boolean;
  onSell: () => void;
}) {
  const ready = selectedCount > 0 && sellAmountValue(state.amount) !== null;
  return (
    <Section title="Sell Tokens">
      <SellAmountControls state={state} label="Sell amount" ticker={ticker} />
      <Button disabled={!ready} busy={busy} busyLabel="selling..." onClick={onSell}>
        [sell tokens]
      </Button>
      {selectedCount === 0 && <p className="text-xs text-faint">Select wallets to sell from.</p>}
    </Section>
  );
}
