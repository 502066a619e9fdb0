import type { AdminClaim } from "@bundler/shared";
import { useState } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/button.tsx";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { formatBnb } from "../../../lib/bnb.ts";
import { type ClaimDecision, useDecideClaim } from "../api/decide-claim.ts";
import { serverMessageOr } from "../utils/admin-messages.ts";
import { isPayoutOnItsWay } from "../utils/claim-state.ts";

const QUESTIONS: Record<ClaimDecision, (claim: AdminClaim) => string> = {
  complete: (claim) =>
    `Send ${formatBnb(claim.amount)} BNB from the treasury wallet to ${claim.receivingAddress}?`,
  reject: (claim) =>
    `Reject this claim? Its ${formatBnb(claim.amount)} BNB return to the user's claimable rewards.`,
};

const FAILED: Record<ClaimDecision, string> = {
  complete: "Failed to complete the claim",
  reject: "Failed to reject the claim",
};

/**
 * [complete] (pay it from the treasury) and [reject] for a pending claim, each confirmed first.
 * A claim whose payout is on its way waits for it to be mined; a failed payout can be sent again.
 */
export function ClaimActions({ claim }: { claim: AdminClaim }) {
  const decide = useDecideClaim();
  const [asking, setAsking] = useState<ClaimDecision | null>(null);
  if (claim.status !== "pending") return null;
  // Nothing to decide while its payout is on its way: it completes once mined.
  if (isPayoutOnItsWay(claim))
    return <span className="text-xs text-dim">payout sent, waiting to be mined</span>;

  const confirm = () => {
    if (!asking) return;
    decide.mutate(
      { id: claim.id, decision: asking },
      {
        onSuccess: ({ message }) => toast.success(message),
        onError: (error) => toast.error(serverMessageOr(error, FAILED[asking])),
        onSettled: () => setAsking(null),
      },
    );
  };

  return (
    <div className="flex gap-3">
      <Button variant="bracket" onClick={() => setAsking("complete")} className="text-ok">
        {claim.txHash ? "[send again]" : "[complete]"}
      </Button>
      <Button variant="bracket" onClick={() => setAsking("reject")} className="text-bad">
        [reject]
      </Button>
      {asking && (
        <ConfirmDialog
          title={asking === "complete" ? "Complete claim" : "Reject claim"}
          message={QUESTIONS[asking](claim)}
          confirmLabel={asking === "complete" ? "[send]" : "[reject]"}
          busy={decide.isPending}
          onConfirm={confirm}
          onCancel={() => setAsking(null)}
        />
      )}
    </div>
  );
}
