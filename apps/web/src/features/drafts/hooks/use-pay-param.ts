import type { DraftSummary } from "@bundler/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import toast from "react-hot-toast";
import { useSearchParams } from "react-router";
import { getDraftQueryOptions } from "../../../components/launch/get-draft.ts";
import type { DraftHeader } from "../utils/draft-status.ts";

/**
 * `?pay={draftId}` opens the payment dialog once the page of drafts is in, but only for a
 * draft in status draft; the parameter is removed either way so a reload does not reopen it.
 * A draft not on the page shown is asked for by id. A draft that is not launch-ready gets its
 * problem as a toast instead.
 */
export function usePayParam(
  drafts: DraftSummary[] | undefined,
  settled: boolean,
  open: (d: DraftHeader) => void,
) {
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const payId = params.get("pay");
  const handled = useRef<string | null>(null);

  useEffect(() => {
    if (!payId) {
      handled.current = null;
      return;
    }
    if (!settled || handled.current === payId) return;
    handled.current = payId;
    const listed = drafts?.find((d) => d._id === payId);
    const found: Promise<DraftHeader | undefined> = listed
      ? Promise.resolve(listed)
      : queryClient.fetchQuery(getDraftQueryOptions(payId)).catch(() => undefined);
    void found.then((draft) => {
      if (draft?.status === "draft") {
        // Not launch-ready: say what is missing rather than ask for a payment address.
        if (draft.launchProblem) toast.error(draft.launchProblem);
        else open(draft);
      }
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete("pay");
          return next;
        },
        { replace: true },
      );
    });
  }, [payId, settled, drafts, open, setParams, queryClient]);
}
