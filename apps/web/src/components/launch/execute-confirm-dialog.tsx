import { type LaunchPlan, plural } from "@bundler/shared";
import toast from "react-hot-toast";
import { useNavigate } from "react-router";
import { failureText } from "../../lib/api-error.ts";
import { formatBnb, fromWei, toWei } from "../../lib/bnb.ts";
import { BUNDLER_WALLETS_KEY, encodeBundlerWallets } from "../../lib/bundler-wallets.ts";
import { usePublicConfig } from "../../lib/public-config.ts";
import { Button } from "../ui/button.tsx";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { FaucetStepText } from "./faucet-step.tsx";
import { type FaucetFunding, useFaucetFunding } from "./fund-from-faucet.ts";
import { faucetAmount, lacksShown } from "./funding.ts";
import { type Shortfall, useFundingCheck } from "./funding-check.ts";
import { useDraftSummary } from "./get-draft-summary.ts";
import type { LaunchTarget } from "./launch-target.ts";

const SUMMARY_FAILED = "Failed to load the launch summary";

function SummaryLines({ plan }: { plan: LaunchPlan }) {
  const { totals } = plan;
  const paid = totals.launchFeePaid;
  // A paid launch fee is spent already: the main line is what the launch still costs.
  const toSpend = paid
    ? fromWei((toWei(totals.total) ?? 0n) - (toWei(totals.launchFee) ?? 0n))
    : totals.total;
  return (
    <>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
        <dt className="font-semibold text-fg" data-testid="execute-total-label">
          {paid ? "Still to spend" : "Total cost"}
        </dt>
        <dd className="text-right font-semibold text-accent" data-testid="execute-total">
          {formatBnb(toSpend)} BNB
        </dd>
        {paid && (
          <>
            <dt className="text-dim">Launch fee</dt>
            <dd className="text-right text-ok" data-testid="execute-launch-fee">
              {formatBnb(totals.launchFee)} BNB, paid
            </dd>
          </>
        )}
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
        {paid ? "Still to spend" : "The total"} counts every buy, tip and fee
        {paid ? " but the launch fee" : ""}, and the gas at the current gas price.
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
 * Every address short of BNB, with what it lacks (the create page's figures), and two ways to
 * fund them from here: the faucet on the local chain, each payment moving in its row, and the
 * disperser with what each lacks.
 */
function Shortfalls({
  shortfalls,
  faucet,
  canUseFaucet,
  explorerUrl,
  onFundAll,
  onDisperser,
}: {
  shortfalls: readonly Shortfall[];
  faucet: FaucetFunding;
  canUseFaucet: boolean;
  explorerUrl: string | null;
  onFundAll: () => void;
  onDisperser: () => void;
}) {
  return (
    <div role="alert" className="flex flex-col gap-1 text-sm" data-testid="execute-shortfalls">
      <p className="text-bad">
        {shortfalls.length === 1
          ? "1 wallet does not hold enough BNB for this launch. Fund it first:"
          : `${plural(shortfalls.length, "wallet")} do not hold enough BNB for this launch. Fund them first:`}
      </p>
      <ul className="max-h-64 overflow-y-auto text-xs">
        {shortfalls.map(({ row, need }) => (
          <li
            key={row.address}
            data-address={row.address}
            className="flex flex-col gap-0.5 border-t border-line py-1"
          >
            <span className="flex flex-wrap gap-x-2">
              <span className="text-faint">{row.role}</span>
              <span className="min-w-0 flex-1 break-all text-dim">{row.address}</span>
            </span>
            <span className="flex flex-wrap justify-between gap-x-3">
              <span className="text-bad">lacks {lacksShown(need)} BNB</span>
              <FaucetStepText step={faucet.stepOf(row.address)} explorerUrl={explorerUrl} />
            </span>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-x-4 gap-y-1 pt-1">
        {canUseFaucet && (
          <Button variant="bracket" busy={faucet.busy} busyLabel="funding..." onClick={onFundAll}>
            [fund all]
          </Button>
        )}
        <Button variant="bracket" disabled={faucet.busy} onClick={onDisperser}>
          [fund with disperser]
        </Button>
      </div>
    </div>
  );
}

/**
 * The spec's "Are you ready to launch ...?" with what the launch will cost and hold, as the
 * server plans the draft now, after checking every address the plan funds: while one is short
 * the launch cannot be confirmed, each short wallet is listed with what it lacks, and it can be
 * funded from here ([fund all] from the faucet on the local chain, after which the balances are
 * checked again; or the disperser). A summary or a balance read that cannot be had does not
 * block the launch (the server checks again).
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
  const config = usePublicConfig();
  const faucet = useFaucetFunding();
  const navigate = useNavigate();
  const short = funding.shortfalls ?? [];
  const explorerUrl = config.data?.explorerUrl ?? null;

  const fundAll = async () => {
    const payments = short.flatMap(({ row }) => {
      const amount = faucetAmount(row.required, funding.balances?.get(row.address.toLowerCase()));
      return amount ? [{ address: row.address, amount }] : [];
    });
    const { failure } = await faucet.run(payments);
    if (failure) toast.error(failure);
    await funding.recheck();
  };

  const toDisperser = () => {
    localStorage.setItem(
      BUNDLER_WALLETS_KEY,
      encodeBundlerWallets(
        short.map(({ row, need }) => ({ address: row.address, buyValue: lacksShown(need) })),
      ),
    );
    onCancel();
    navigate("/disperser?autoImport=true");
  };

  return (
    <ConfirmDialog
      message={`Are you ready to launch ${draft.tokenInfo.name} (${draft.tokenInfo.symbol})? This action cannot be undone.`}
      confirmLabel="[launch]"
      confirmDisabled={summary.isPending || funding.checking || faucet.busy || short.length > 0}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <div className="flex flex-col gap-2 border-t border-line pt-3">
        {short.length > 0 && (
          <Shortfalls
            shortfalls={short}
            faucet={faucet}
            canUseFaucet={config.data?.faucet === true}
            explorerUrl={explorerUrl}
            onFundAll={() => void fundAll()}
            onDisperser={toDisperser}
          />
        )}
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
