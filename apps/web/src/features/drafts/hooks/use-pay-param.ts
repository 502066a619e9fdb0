import type { Draft } from "@bundler/shared";
import { useEffect } from "react";
import { useSearchParams } from "react-router";

/**
 * `?pay={draftId}` opens the payment dialog once the list is in, but only for a draft in
 * status draft; the parameter is removed either way so a reload does not reopen it.
 */
export function usePayParam(
  drafts: Draft[] | undefined,
  settled: boolean,
  open: (d: Draft) => void,
) {
  const [params, setParams] = useSearchParams();
  const payId = params.get("pay");

  useEffect(() => {
    if (!payId || !settled) return;
    const draft = drafts?.find((d) => d._id === payId);
    if (draft?.status === "draft") open(draft);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete("pay");
        return next;
      },
      { replace: true },
    );
  }, [payId, settled, drafts, open, setParams]);
}
