import type { WalletBalance } from "@bundler/shared";
import { AddressLink } from "../../../components/ui/address-link.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { formatBnb } from "../../../lib/bnb.ts";
import type { SellAmountState } from "../hooks/use-sell-amount.ts";
import type { SellOptionsState } from "../hooks/use-sell-options.ts";
import { sellAmountValue } from "../utils/sell-amount.ts";
import { formatTokens, toUnits } from "../utils/token-amount.ts";
import { SellAmountControls } from "./sell-amount-controls.tsx";
import { SellOptionsControls } from "./sell-options-controls.tsx";

/** "Sell Developer Tokens": the deployer wallet's own tokens. Shown only while it holds some. */
export function SellDeveloperPanel({
  developer,
  explorerUrl,
  state,
  options,
  ticker,
  busy,
  onSell,
}: {
  developer: WalletBalance;
  explorerUrl: string | null;
  state: SellAmountState;
  options: SellOptionsState;
  ticker: string;
  busy: boolean;
  onSell: () => void;
}) {
  return (
    <Section title="Sell Developer Tokens">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
        <dt className="text-faint">Developer</dt>
        <dd className="break-all text-fg" data-testid="developer-address">
          <AddressLink address={developer.address} explorerUrl={explorerUrl} />
        </dd>
        <dt className="text-faint">Tokens</dt>
        <dd className="text-fg" data-testid="developer-tokens">
          {formatTokens(toUnits(developer.tokenUnits))} {ticker}
        </dd>
        <dt className="text-faint">BNB</dt>
        <dd className="text-fg" data-testid="developer-bnb">
          {formatBnb(developer.bnbBalance)} BNB
        </dd>
      </dl>
      <SellAmountControls
        state={state}
        label="Developer sell amount"
        ticker={ticker}
        of="developer"
      />
      <SellOptionsControls options={options} />
      <Button
        disabled={sellAmountValue(state.amount) === null || options.slippageBps === null}
        busy={busy}
        busyLabel="selling..."
        onClick={onSell}
      >
        [sell developer tokens]
      </Button>
    </Section>
  );
}
