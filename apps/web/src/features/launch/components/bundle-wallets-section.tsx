import { plural } from "@bundler/shared";
import { type ReactNode, useState } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Section } from "../../../components/ui/section.tsx";
import type { BundleWallet, LaunchForm, SetField } from "../utils/launch-form.ts";
import type { KeyedWallet } from "../utils/private-key.ts";
import { parseWalletJson } from "../utils/wallet-json.ts";
import type { WalletProblem } from "../utils/wallet-problem.ts";
import { ImportWalletsModal } from "./import-wallets-modal.tsx";
import { UploadHelpModal } from "./upload-help-modal.tsx";

type Dialog = "import" | "help" | null;

export function BundleWalletsSection({
  form,
  set,
  wallets,
  onAddWallets,
  onClearWallets,
  onViewWallets,
  onRegenerateAmounts,
  regenerating,
  problem = null,
  blockFit,
  footer,
}: {
  form: LaunchForm;
  set: SetField;
  wallets: readonly BundleWallet[];
  onAddWallets: (wallets: KeyedWallet[]) => void;
  onClearWallets: () => void;
  onViewWallets: () => void;
  /** Re-rolls every wallet's buy value within the current min/max. */
  onRegenerateAmounts: () => void;
  regenerating: boolean;
  /** A wallet the server refused: said here, and marked in the wallet list. */
  problem?: WalletProblem | null;
  /** How many of these wallets buy in the create's block, and why. */
  blockFit?: ReactNode;
  /** The page's main button while it is about these wallets (Generate Wallets or Amounts). */
  footer?: ReactNode;
}) {
  const [dialog, setDialog] = useState<Dialog>(null);
  const unit = form.buyUnitPercent ? "%" : "BNB";
  const hasAmounts = wallets.some((wallet) => Number(wallet.buyValue) > 0);

  const upload = async (file: File | undefined) => {
    if (!file) return;
    const result = parseWalletJson(file.name, await file.text());
    if (!result.ok) return void toast.error(result.error);
    if (result.wallets.length === 0) return void toast.error("No valid private keys entered");
    onAddWallets(result.wallets);
  };

  return (
    <Section
      title="Bundle Wallets"
      aside={
        <div className="flex flex-wrap gap-3 text-dim">
          <button type="button" className="hover:text-accent" onClick={() => setDialog("import")}>
            [import keys]
          </button>
          <label className="cursor-pointer hover:text-accent">
            [upload json]
            <input
              type="file"
              accept=".json,application/json"
              aria-label="Wallet JSON file"
              className="sr-only"
              onChange={(e) => {
                void upload(e.target.files?.[0]);
                e.target.value = "";
              }}
            />
          </label>
          <button type="button" className="hover:text-accent" onClick={() => setDialog("help")}>
            [?]
          </button>
        </div>
      }
    >
      <div className="grid gap-4 sm:grid-cols-4">
        <Field label="Wallets">
          <Input
            aria-label="Number of wallets"
            inputMode="numeric"
            placeholder="e.g. 5"
            value={form.walletCount}
            onChange={(e) => set("walletCount", e.target.value)}
          />
        </Field>
        <Field label={`Min buy (${unit})`}>
          <Input
            aria-label="Min buy"
            inputMode="decimal"
            placeholder={form.buyUnitPercent ? "e.g. 0.5" : "e.g. 0.01"}
            value={form.minBuyAmount}
            onChange={(e) => set("minBuyAmount", e.target.value)}
          />
        </Field>
        <Field label={`Max buy (${unit})`}>
          <Input
            aria-label="Max buy"
            inputMode="decimal"
            placeholder={form.buyUnitPercent ? "e.g. 1" : "e.g. 0.05"}
            value={form.maxBuyAmount}
            onChange={(e) => set("maxBuyAmount", e.target.value)}
          />
        </Field>
        <Field label="Buy unit">
          <fieldset aria-label="Buy unit" className="flex">
            {(
              [
                ["BNB", false],
                ["%", true],
              ] as const
            ).map(([label, percent]) => (
              <button
                key={label}
                type="button"
                aria-pressed={form.buyUnitPercent === percent}
                onClick={() => set("buyUnitPercent", percent)}
                className={`flex-1 border px-3 py-2 ${form.buyUnitPercent === percent ? "border-accent bg-accent-soft text-accent" : "border-line-strong text-dim hover:text-fg"}`}
              >
                {label}
              </button>
            ))}
          </fieldset>
        </Field>
      </div>
      {blockFit}
      <p className="text-xs text-faint">
        Percent is of the total supply, converted to BNB with the bonding curve's quote.
      </p>
      {wallets.length > 0 && (
        <div className="flex flex-wrap items-center gap-4 text-dim">
          <span className="text-fg">{plural(wallets.length, "wallet")} loaded</span>
          <button type="button" className="hover:text-accent" onClick={onViewWallets}>
            [view wallets]
          </button>
          {hasAmounts && (
            <Button
              variant="bracket"
              busy={regenerating}
              busyLabel="generating..."
              onClick={onRegenerateAmounts}
            >
              [regenerate amounts]
            </Button>
          )}
          <button type="button" className="hover:text-bad" onClick={onClearWallets}>
            [clear wallets]
          </button>
        </div>
      )}
      {problem && (
        <p role="alert" className="text-xs text-bad" data-testid="wallet-problem">
          {problem.message}{" "}
          <button type="button" className="text-dim hover:text-accent" onClick={onViewWallets}>
            [view wallet {problem.row}]
          </button>
        </p>
      )}
      {footer}
      {dialog === "import" && (
        <ImportWalletsModal onImport={onAddWallets} onClose={() => setDialog(null)} />
      )}
      {dialog === "help" && <UploadHelpModal onClose={() => setDialog(null)} />}
    </Section>
  );
}
