import type { FaucetBody } from "@bundler/shared";
import { useState } from "react";
import toast from "react-hot-toast";
import { useNavigate } from "react-router";
import { ApiError } from "../../../lib/api-client.ts";
import { useFundFromFaucet } from "../api/fund-from-faucet.ts";
import { useGenerateAmounts } from "../api/generate-amounts.ts";
import { DECRYPT_FAILED, useGenerateWallets } from "../api/generate-wallets.ts";
import { SAVE_DRAFT_FAILED, useSaveDraft } from "../api/save-draft.ts";
import { toDraftInput } from "../utils/draft-mapping.ts";
import { type FundingRow, faucetAmount } from "../utils/funding.ts";
import type { BundleWallet, LaunchForm } from "../utils/launch-form.ts";
import {
  validateBuyRange,
  validateForPay,
  validateForSave,
  validateGeneration,
} from "../utils/validate-launch-form.ts";

export const BUNDLER_WALLETS_KEY = "bundler-wallets";
export const PAY_DRAFT_FAILED = "Failed to create draft for payment";

const errorText = (error: unknown, fallback: string) =>
  error instanceof ApiError
    ? (error.serverMessage ?? error.title)
    : error instanceof Error && error.message === DECRYPT_FAILED
      ? DECRYPT_FAILED
      : fallback;

interface Input {
  draftId: string | null;
  form: LaunchForm;
  wallets: BundleWallet[];
  setWallets: (wallets: BundleWallet[]) => void;
  balances: ReadonlyMap<string, string> | undefined;
  refreshBalances: () => void;
}

/** What the main button, the disperser hand-off, the faucet and saving do. */
export function useLaunchActions({
  draftId,
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
      toast.error(errorText(error, "Failed to generate wallets"));
    }
  };

  const onGenerateAmounts = async () => {
    const problem = validateBuyRange(form);
    if (problem) return void toast.error(problem);
    try {
      const amounts = await generateAmounts.mutateAsync({
        wallets: wallets.map((w) => w.address),
        ...range(),
      });
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
      toast.error(errorText(error, "Failed to generate amounts"));
    }
  };

  const save = async (forPayment: boolean) => {
    const problem = forPayment ? validateForPay(form, wallets) : validateForSave(form, wallets);
    if (problem) return void toast.error(problem);
    const failed = forPayment ? PAY_DRAFT_FAILED : SAVE_DRAFT_FAILED;
    try {
      const id = await saveDraft.mutateAsync({ id: draftId, draft: toDraftInput(form, wallets) });
      if (forPayment) return void navigate(`/drafts?pay=${encodeURIComponent(id)}`);
      toast.success(draftId ? "Draft updated" : "Draft saved");
      navigate("/drafts");
    } catch (error) {
      const detail = error instanceof ApiError ? error.serverMessage : null;
      toast.error(detail ? `${failed}: ${detail}` : failed);
    }
  };

  const goToDisperser = () => {
    const handOff = wallets.map(({ address, buyValue }) => ({ address, buyValue }));
    localStorage.setItem(BUNDLER_WALLETS_KEY, JSON.stringify(handOff));
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
    } catch {
      // The api client already showed the failure.
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
