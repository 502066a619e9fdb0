import type { LaunchPlan } from "@bundler/shared";
import { failureText } from "../../lib/api-error.ts";
import { formatBnb } from "../../lib/bnb.ts";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { type Shortfall, useFundingCheck } from "./funding-check.ts";
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

/** Every address short of BNB, with what it lacks: the launch waits until they are funded. */
function Shortfalls({ shortfalls }: { shortfalls: readonly Shortfall[] }) {
  return (
    <div role="alert" className="flex flex-col gap-1 text-sm" data-testid="execute-shortfalls">
      <p className="text-bad">
        {shortfalls.length === 1
          ? "1 wallet does not hold enough BNB for this launch. Fund it first:"
          : `${shortfalls.length} wallets do not hold enough BNB for this launch. Fund them first:`}
      </p>
      <ul className="max-h-48 overflow-y-auto text-xs">
        {shortfalls.map((s) => (
          <li key={s.address} className="flex flex-wrap gap-x-2 border-t border-line py-1">
            <span className="text-faint">{s.roles}</span>
            <span className="min-w-0 flex-1 break-all text-dim">{s.address}</span>
            <span className="text-bad">lacks {s.lacks} BNB</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The spec's "Are you ready to launch ...?" with what the launch will cost and hold, as the
 * server plans the draft now, after checking every address the plan funds: while one is short
 * the launch cannot be confirmed, and each short wallet is listed with what it lacks. A summary
 * or a balance read that cannot be had does not block the launch (the server checks again).
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
  const funding = useFundingCheck(summary.data);
  const short = funding.shortfalls ?? [];
  return (
    <ConfirmDialog
      message={`Are you ready to launch ${draft.tokenInfo.name} (${draft.tokenInfo.symbol})? This action cannot be undone.`}
      confirmLabel="[launch]"
      confirmDisabled={summary.isPending || funding.checking || short.length > 0}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <div className="flex flex-col gap-2 border-t border-line pt-3">
        {short.length > 0 && <Shortfalls shortfalls={short} />}
        {funding.checking && <p className="text-xs text-faint">checking balances...</p>}
        {summary.data && <SummaryLines plan={summary.data} />}
        {summary.isPending && <p className="text-xs text-faint">calculating...</p>}
        {summary.isError && (
          <p className="text-sm text-bad">{failureText(summary.error, SUMMARY_FAILED)}</p>
        )}
      </div>
    </ConfirmDialog>
  );
}
