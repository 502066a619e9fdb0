import { BUMPER_GAS_ESTIMATE_BNB, type Bumper } from "@bundler/shared";
import { FaucetButton } from "../../../components/faucet-button.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { CopyField } from "../../../components/ui/copy-field.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { failureText } from "../../../lib/api-error.ts";
import { BNB_DISPLAY_DECIMALS, formatBnb, fromWei, toWei } from "../../../lib/bnb.ts";
import { isCompleted } from "../utils/bumper-messages.ts";

const GAS_PER_BUMP_WEI = toWei(String(BUMPER_GAS_ESTIMATE_BNB)) ?? 0n;
const DISPLAY_UNIT_WEI = 10n ** BigInt(18 - BNB_DISPLAY_DECIMALS);

/**
 * What the bumper should still hold, in wei: the buy size plus 0.001 BNB of gas for each bump
 * it has yet to make (before it starts, every bump: SPEC §9's figure). In wei rather than
 * floats: 0.01 + 0.001 × 3 is 0.013000000000000001 as a float, which a balance of exactly
 * 0.013 BNB would fall short of.
 */
export const requiredFor = (bumper: Bumper): bigint =>
  (toWei(bumper.buySize) ?? 0n) +
  GAS_PER_BUMP_WEI * BigInt(Math.max(0, bumper.totalBumps - bumper.bumpsCompleted));

/** Wei the balance is short of what the bumps need (0 or less: enough). */
export const missingFor = (bumper: Bumper): bigint =>
  requiredFor(bumper) - (toWei(bumper.balance) ?? 0n);

/**
 * "Sufficient balance", or how much more BNB the bumper needs, rounded up to the 4 decimals
 * shown (never "Need 0.0000 more BNB").
 */
export function fundingText(bumper: Bumper): string {
  const missing = missingFor(bumper);
  if (missing <= 0n) return "Sufficient balance";
  const shown = ((missing + DISPLAY_UNIT_WEI - 1n) / DISPLAY_UNIT_WEI) * DISPLAY_UNIT_WEI;
  return `Need ${formatBnb(shown)} more BNB`;
}

/**
 * The address to fund, its balance against what the bumps need, and a way to start over. A
 * completed bumper cannot start again: it needs nothing more, so neither line nor faucet.
 */
export function BumperWalletCard({
  bumper,
  onNew,
  onFunded,
}: {
  bumper: Bumper;
  onNew: () => void;
  onFunded: () => void;
}) {
  const done = isCompleted(bumper);
  const missing = missingFor(bumper);
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
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span className="text-dim">
          Balance{" "}
          <span className="tabular-nums text-fg" data-testid="bumper-balance">
            {formatBnb(bumper.balance)} BNB
          </span>
        </span>
        {!done && (
          <span data-testid="bumper-funding" className={missing <= 0n ? "text-ok" : "text-accent"}>
            {fundingText(bumper)}
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
