import { type DraftStatus, type FaucetBody, plural } from "@bundler/shared";
import { useState } from "react";
import toast from "react-hot-toast";
import { useNavigate } from "react-router";
import { useFaucetFunding } from "../../../components/launch/fund-from-faucet.ts";
import { type FundingRow, faucetAmount } from "../../../components/launch/funding.ts";
import type { LaunchTarget } from "../../../components/launch/launch-target.ts";
import { ApiError } from "../../../lib/api-client.ts";
import { BUNDLER_WALLETS_KEY, encodeBundlerWallets } from "../../../lib/bundler-wallets.ts";
import { useGenerateAmounts } from "../api/generate-amounts.ts";
import { DECRYPT_FAILED, useGenerateWallets } from "../api/generate-wallets.ts";
import { SAVE_DRAFT_FAILED, useSaveDraft } from "../api/save-draft.ts";
import { toDraftInput } from "../utils/draft-mapping.ts";
import { toastFailure } from "../utils/failure-toast.ts";
import type { BundleWallet, LaunchForm } from "../utils/launch-form.ts";
import { validateForLaunch } from "../utils/validate-launch-execute.ts";
import {
  validateBuyRange,
  validateForSave,
  validateGeneration,
} from "../utils/validate-launch-form.ts";
import { type WalletProblem, walletProblemOf } from "../utils/wallet-problem.ts";

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
  /** "Execute Launch": the paid draft is saved as shown and ready; ask to launch it. */
  onReadyToLaunch: (draft: LaunchTarget) => void;
}

/** Where saving leads: the drafts list, the payment dialog, or the launch confirmation. */
type AfterSave = "list" | "pay" | "execute";

/** What the main button, the disperser hand-off, the faucet, saving and executing do. */
export function useLaunchActions({
  draftId,
  status,
  form,
  wallets,
  setWallets,
  balances,
  refreshBalances,
  onReadyToLaunch,
}: Input) {
  const navigate = useNavigate();
  const generateWallets = useGenerateWallets();
  const generateAmounts = useGenerateAmounts();
  const saveDraft = useSaveDraft();
  const faucet = useFaucetFunding();
  const [toDownload, setToDownload] = useState<BundleWallet[] | null>(null);
  // The wallet the server last refused, marked in the list while the list is the same.
  const [refused, setRefused] = useState<{ list: BundleWallet[]; problem: WalletProblem } | null>(
    null,
  );
  const noteRefusal = (error: unknown) => {
    const problem = walletProblemOf(error);
    setRefused(problem ? { list: wallets, problem } : null);
  };

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
      noteRefusal(error);
      toastFailure(error, "Failed to generate amounts");
    }
  };

  const save = async (then: AfterSave) => {
    // A paid draft's next step is the launch, so it is saved only in a launchable state.
    const launchRules = then !== "list" || status === "paid";
    const problem = launchRules ? validateForLaunch(form, wallets) : validateForSave(form, wallets);
    if (problem) return void toast.error(problem);
    const failed = then === "pay" ? PAY_DRAFT_FAILED : SAVE_DRAFT_FAILED;
    try {
      // Executing saves first: the server launches the saved draft, so it launches what is shown.
      const id = await saveDraft.mutateAsync({ id: draftId, draft: toDraftInput(form, wallets) });
      if (then === "pay") return void navigate(`/drafts?pay=${encodeURIComponent(id)}`);
      if (then === "execute") {
        const tokenInfo = { name: form.name.trim(), symbol: form.ticker.trim() };
        return onReadyToLaunch({ _id: id, status: "paid", tokenInfo });
      }
      toast.success(draftId ? "Draft updated" : "Draft saved");
      navigate("/drafts");
    } catch (error) {
      noteRefusal(error);
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
      const { confirmed, failure } = await faucet.run(payments);
      if (failure) toast.error(failure);
      if (confirmed > 0)
        toast.success(
          payments.length === 1
            ? "Funded from faucet"
            : `Funded ${plural(confirmed, "wallet")} from faucet`,
        );
    } finally {
      refreshBalances();
    }
  };

  return {
    onGenerateWallets,
    onGenerateAmounts,
    onSave: () => save("list"),
    onPay: () => save("pay"),
    onExecute: () => save("execute"),
    goToDisperser,
    fund,
    funding: faucet.busy,
    /** Where each address's faucet payment stands. */
    faucetStepOf: faucet.stepOf,
    toDownload,
    closeDownload: () => setToDownload(null),
    /** The bundle wallet a save or amount request was refused for, while the list is unchanged. */
    walletProblem: refused?.list === wallets ? refused.problem : null,
    busy: {
      wallets: generateWallets.isPending,
      amounts: generateAmounts.isPending,
      save: saveDraft.isPending,
    },
  };
}
