import type { DraftStatus } from "@bundler/shared";
import { useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";
import { useDraft } from "../api/get-draft.ts";
import { fromDraft } from "../utils/draft-mapping.ts";
import {
  type BundleWallet,
  EMPTY_LAUNCH_FORM,
  type LaunchForm,
  type SetField,
} from "../utils/launch-form.ts";
import type { KeyedWallet } from "../utils/private-key.ts";

export const LOAD_DRAFT_FAILED = "Failed to load draft";

/** The form and wallet list, loaded once from `?draft={id}` when editing. */
export function useLaunchData(draftId: string | null, authenticated: boolean) {
  const [form, setForm] = useState<LaunchForm>(EMPTY_LAUNCH_FORM);
  const [wallets, setWallets] = useState<BundleWallet[]>([]);
  const [status, setStatus] = useState<DraftStatus | null>(null);
  const draft = useDraft(draftId, authenticated);
  const loadedId = useRef<string | null>(null);

  useEffect(() => {
    if (!draft.data || loadedId.current === draft.data._id) return;
    loadedId.current = draft.data._id;
    const loaded = fromDraft(draft.data);
    setForm(loaded.form);
    setWallets(loaded.wallets);
    setStatus(draft.data.status);
  }, [draft.data]);

  useEffect(() => {
    if (draft.isError) toast.error(LOAD_DRAFT_FAILED);
  }, [draft.isError]);

  const set: SetField = (field, value) => setForm((current) => ({ ...current, [field]: value }));

  /** Imported or uploaded wallets join the list (no duplicates) with no buy value yet. */
  const addWallets = (added: readonly KeyedWallet[]) =>
    setWallets((current) => {
      const known = new Set(current.map((wallet) => wallet.address.toLowerCase()));
      const fresh = added
        .filter((wallet) => !known.has(wallet.address.toLowerCase()))
        .map((wallet) => ({ ...wallet, buyValue: "0" }));
      const next = [...current, ...fresh];
      setForm((f) => ({ ...f, walletCount: String(next.length) }));
      return next;
    });

  return {
    form,
    set,
    wallets,
    setWallets,
    addWallets,
    status,
    setStatus,
    /** The draft as the server gave it when the page opened (null when not editing). */
    draft: draft.data ?? null,
    loadingDraft: draft.isLoading,
  };
}
