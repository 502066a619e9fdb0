import type { LaunchPlan } from "@bundler/shared";
import { failureText } from "../../lib/api-error.ts";
import { formatBnb } from "../../lib/bnb.ts";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { useDraftSummary } from "./get-draft-summary.ts";
import type { LaunchTarget } from "./launch-target.ts";

const SUMMARY_FAILED = "Failed to load the launch summary";

function SummaryLines({ plan }: { plan: LaunchPlan }) {
  const { totals } = plan;
  return (
    <>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
        <dt className="font-semibold text-fg">Total cost</dt>
        <dd className="text-right font-semibold text-accent" data-testid="execute-total">
          {formatBnb(totals.total)} BNB
        </dd>
        <dt className="text-dim">Bundle share of supply</dt>
        <dd className="text-right" data-testid="execute-share">
          {totals.bundleSharePercent}%
        </dd>
        <dt className="text-dim">Bundles</dt>
        <dd className="text-right" data-testid="execute-bundles">
          {plan.tip.bundles}
        </dd>
      </dl>
      <p className="text-xs text-faint">
        The total counts every buy, tip and fee, and the gas at the current gas price
        {totals.launchFeePaid
          ? `; the ${formatBnb(totals.launchFee)} BNB launch fee in it is already paid.`
          : "."}
      </p>
      {plan.curve.warning && (
        <p className="text-sm text-accent" role="alert">
          ⚠ {plan.curve.warning}
        </p>
      )}
    </>
  );
}

/**
 * The spec's "Are you ready to launch ...?" with what the launch will cost and hold, as the
 * server plans the draft now. A summary that cannot be had does not block the launch.
 */
export function ExecuteConfirmDialog({
  draft,
  onConfirm,
  onCancel,
}: {
  draft: LaunchTarget;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const summary = useDraftSummary(draft._id);
  return (
    <ConfirmDialog
      message={`Are you ready to launch ${draft.tokenInfo.name} (${draft.tokenInfo.symbol})? This action cannot be undone.`}
      confirmLabel="[launch]"
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <div className="flex flex-col gap-2 border-t border-line pt-3">
        {summary.data && <SummaryLines plan={summary.data} />}
        {summary.isPending && <p className="text-xs text-faint">calculating...</p>}
        {summary.isError && (
          <p className="text-sm text-bad">{failureText(summary.error, SUMMARY_FAILED)}</p>
        )}
      </div>
    </ConfirmDialog>
  );
}
