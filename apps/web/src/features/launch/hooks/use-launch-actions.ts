import type { DraftStatus, FaucetBody } from "@bundler/shared";
import { useState } from "react";
import toast from "react-hot-toast";
import { useNavigate } from "react-router";
import { ApiError } from "../../../lib/api-client.ts";
import { BUNDLER_WALLETS_KEY, encodeBundlerWallets } from "../../../lib/bundler-wallets.ts";
import { useFundFromFaucet } from "../api/fund-from-faucet.ts";
import { useGenerateAmounts } from "../api/generate-amounts.ts";
import { DECRYPT_FAILED, useGenerateWallets } from "../api/generate-wallets.ts";
import { SAVE_DRAFT_FAILED, useSaveDraft } from "../api/save-draft.ts";
import { toDraftInput } from "../utils/draft-mapping.ts";
import { toastFailure } from "../utils/failure-toast.ts";
import { type FundingRow, faucetAmount } from "../utils/funding.ts";
import type { BundleWallet, LaunchForm } from "../utils/launch-form.ts";
import { validateForLaunch } from "../utils/validate-launch-execute.ts";
import {
  validateBuyRange,
  validateForSave,
  validateGeneration,
} from "../utils/validate-launch-form.ts";

export const PAY_DRAFT_FAILED = "Failed to create draft for payment";

interface Input {
  draftId: string | null;
  /** The loaded draft's status; a paid draft is saved under the launch's rules. */
  status: DraftStatus | null;
  form: LaunchForm;
  wallets: BundleWallet[];
  setWallets: (wallets: BundleWallet[]) => void;
  balances: ReadonlyMap<string, string> | undefined;
  refreshBalances: () => void;
}

/** What the main button, the disperser hand-off, the faucet and saving do. */
export function useLaunchActions({
  draftId,
  status,
  form,
  wallets,
  setWallets,
  balances,
  refreshBalances,
}: Input) {
  const navigate = useNavigate();
  const generateWallets = useGenerateWallets();
  const generateAmounts = useGenerateAmounts();
  const saveDraft = useSaveDraft();
  const faucet = useFundFromFaucet();
  const [toDownload, setToDownload] = useState<BundleWallet[] | null>(null);

  const range = () => ({
    minBuyAmount: form.minBuyAmount.trim(),
    maxBuyAmount: form.maxBuyAmount.trim(),
    isPercentage: form.buyUnitPercent,
  });

  const onGenerateWallets = async () => {
    const problem = validateGeneration(form);
    if (problem) return void toast.error(problem);
    try {
      const generated = await generateWallets.mutateAsync({
        walletCount: Number(form.walletCount),
        ...range(),
      });
      setWallets(generated);
      setToDownload(generated);
    } catch (error) {
      toastFailure(error, "Failed to generate wallets", [DECRYPT_FAILED]);
    }
  };

  const onGenerateAmounts = async () => {
    const problem = validateBuyRange(form);
    if (problem) return void toast.error(problem);
    try {
      const sniper = form.delaySnipeAddress.trim();
      const { amounts, curve } = await generateAmounts.mutateAsync({
        wallets: wallets.map((w) => w.address),
        ...range(),
        creatorBuy: form.deployerBuy.trim() || "0",
        ...(sniper ? { delaySnipeAddress: sniper } : {}),
      });
      if (curve.warning) toast(curve.warning, { icon: "⚠" });
      const byAddress = new Map(amounts.map((a) => [a.address.toLowerCase(), a]));
      setWallets(
        wallets.map((wallet) => {
          const amount = byAddress.get(wallet.address.toLowerCase());
          return amount
            ? { ...wallet, buyValue: amount.buyValue, tokenAmount: amount.tokenAmount }
            : wallet;
        }),
      );
    } catch (error) {
      toastFailure(error, "Failed to generate amounts");
    }
  };

  const save = async (forPayment: boolean) => {
    // A paid draft's next step is the launch, so it is saved only in a launchable state.
    const launchRules = forPayment || status === "paid";
    const problem = launchRules ? validateForLaunch(form, wallets) : validateForSave(form, wallets);
    if (problem) return void toast.error(problem);
    const failed = forPayment ? PAY_DRAFT_FAILED : SAVE_DRAFT_FAILED;
    try {
      const id = await saveDraft.mutateAsync({ id: draftId, draft: toDraftInput(form, wallets) });
      if (forPayment) return void navigate(`/drafts?pay=${encodeURIComponent(id)}`);
      toast.success(draftId ? "Draft updated" : "Draft saved");
      navigate("/drafts");
    } catch (error) {
      toast.error(failed);
      // The spec's toast is exact; the server's reason, when it gave one, follows on its own.
      const detail = error instanceof ApiError ? error.serverMessage : null;
      if (detail) toast(detail);
    }
  };

  const goToDisperser = () => {
    localStorage.setItem(BUNDLER_WALLETS_KEY, encodeBundlerWallets(wallets));
    navigate("/disperser?autoImport=true");
  };

  const fund = async (rows: readonly FundingRow[]) => {
    const payments = rows.flatMap((row): FaucetBody[] => {
      const amount = faucetAmount(row.required, balances?.get(row.address.toLowerCase()));
      return amount ? [{ address: row.address, amount }] : [];
    });
    if (payments.length === 0) return;
    try {
      await faucet.mutateAsync(payments);
      toast.success(
        payments.length === 1
          ? "Funded from faucet"
          : `Funded ${payments.length} wallets from faucet`,
      );
    } catch (error) {
      toastFailure(error, "Faucet payment failed");
    } finally {
      refreshBalances();
    }
  };

  return {
    onGenerateWallets,
    onGenerateAmounts,
    onSave: () => save(false),
    onPay: () => save(true),
    goToDisperser,
    fund,
    funding: faucet.isPending,
    toDownload,
    closeDownload: () => setToDownload(null),
    busy: {
      wallets: generateWallets.isPending,
      amounts: generateAmounts.isPending,
      save: saveDraft.isPending,
    },
  };
}
