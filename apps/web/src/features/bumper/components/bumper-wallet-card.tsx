import { type Bumper, requiredBumperBnb } from "@bundler/shared";
import { FaucetButton } from "../../../components/faucet-button.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { CopyField } from "../../../components/ui/copy-field.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { failureText } from "../../../lib/api-error.ts";
import { formatBnb } from "../../../lib/bnb.ts";

/**
 * What the bumper should still hold: the buy size plus 0.001 BNB of gas for each bump it has
 * yet to make (before it starts, every bump: SPEC §9's figure).
 */
export const requiredFor = (bumper: Bumper): number =>
  requiredBumperBnb(Number(bumper.buySize), Math.max(0, bumper.totalBumps - bumper.bumpsCompleted));

/** "Sufficient balance", or how much more BNB the bumper needs. */
export function fundingText(bumper: Bumper): string {
  const missing = requiredFor(bumper) - Number(bumper.balance);
  return missing <= 0 ? "Sufficient balance" : `Need ${missing.toFixed(4)} more BNB`;
}

/** The address to fund, its balance against what the bumps need, and a way to start over. */
export function BumperWalletCard({
  bumper,
  onNew,
  onFunded,
}: {
  bumper: Bumper;
  onNew: () => void;
  onFunded: () => void;
}) {
  const text = fundingText(bumper);
  const missing = requiredFor(bumper) - Number(bumper.balance);
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
        <span data-testid="bumper-funding" className={missing <= 0 ? "text-ok" : "text-accent"}>
          {text}
        </span>
      </div>
      {missing > 0 && (
        <FaucetButton
          address={bumper.address}
          amount={missing.toFixed(6)}
          label="[fund from faucet]"
          errorText={(error) => failureText(error, "Faucet payment failed")}
          onSent={onFunded}
        />
      )}
    </Section>
  );
}
