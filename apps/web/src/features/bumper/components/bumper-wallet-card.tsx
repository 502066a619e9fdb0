import { type Bumper, type BumperCosts, remainingPlan } from "@bundler/shared";
import { FaucetButton } from "../../../components/faucet-button.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { CopyField } from "../../../components/ui/copy-field.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { failureText } from "../../../lib/api-error.ts";
import { BNB_DISPLAY_DECIMALS, formatBnb, fromWei, toWei } from "../../../lib/bnb.ts";
import { isCompleted } from "../utils/bumper-messages.ts";

const DISPLAY_UNIT_WEI = 10n ** BigInt(18 - BNB_DISPLAY_DECIMALS);

/**
 * What the bumper should still hold, in wei: the buy size plus, for each bump it has yet to
 * make, the builder's tip, its gas at today's price and its trading fees (the plan it was
 * funded by, for the bumps left).
 */
export const requiredFor = (bumper: Bumper, costs: BumperCosts): bigint =>
  remainingPlan(bumper, costs).required;

/** Wei the balance is short of what the bumps need (0 or less: enough). */
export const missingFor = (bumper: Bumper, costs: BumperCosts): bigint =>
  requiredFor(bumper, costs) - (toWei(bumper.balance) ?? 0n);

/**
 * "Sufficient balance", or how much more BNB the bumper needs, rounded up to the 4 decimals
 * shown (never "Need 0.0000 more BNB", never less than it needs).
 */
export function fundingText(bumper: Bumper, costs: BumperCosts): string {
  const missing = missingFor(bumper, costs);
  if (missing <= 0n) return "Sufficient balance";
  const shown = ((missing + DISPLAY_UNIT_WEI - 1n) / DISPLAY_UNIT_WEI) * DISPLAY_UNIT_WEI;
  return `Need ${formatBnb(shown)} more BNB`;
}

/** Where to send BNB, and that the address moves on after each bump. */
function addressNote(bumper: Bumper): string {
  if (bumper.currentWalletIndex === 0)
    return "Fund this address before you start. After each bump the bumper moves its BNB to a new wallet, and this card then shows that wallet's address.";
  const moves = bumper.currentWalletIndex;
  return `The bumper has moved to a new wallet ${moves === 1 ? "once" : `${moves} times`} since it was generated: this is its address now. Send BNB only to the address shown here, not to an earlier one.`;
}

/**
 * The address to fund, its balance against what the bumps need, and a way to start over. A
 * completed bumper cannot start again: it needs nothing more, so neither line nor faucet.
 */
export function BumperWalletCard({
  bumper,
  costs,
  onNew,
  onFunded,
}: {
  bumper: Bumper;
  /** What a bump costs now; undefined until the server answers. */
  costs: BumperCosts | undefined;
  onNew: () => void;
  onFunded: () => void;
}) {
  const done = isCompleted(bumper);
  const missing = costs ? missingFor(bumper, costs) : 0n;
  return (
    <Section
      title="Bumper Wallet"
      aside={
        <Button variant="bracket" onClick={onNew}>
          Generate new bumper
        </Button>
      }
    >
      <CopyField
        label="Send BNB to this address"
        value={bumper.address}
        copyLabel="Copy bumper address"
        data-testid="bumper-address"
      />
      {!done && (
        <p className="text-xs text-dim" data-testid="bumper-address-note">
          {addressNote(bumper)}
        </p>
      )}
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span className="text-dim">
          Balance{" "}
          <span className="tabular-nums text-fg" data-testid="bumper-balance">
            {formatBnb(bumper.balance)} BNB
          </span>
        </span>
        {!done && costs && (
          <span data-testid="bumper-funding" className={missing <= 0n ? "text-ok" : "text-accent"}>
            {fundingText(bumper, costs)}
          </span>
        )}
      </div>
      {!done && missing > 0n && (
        <FaucetButton
          address={bumper.address}
          amount={fromWei(missing)}
          label="[fund from faucet]"
          errorText={(error) => failureText(error, "Faucet payment failed")}
          onSent={onFunded}
        />
      )}
    </Section>
  );
}
