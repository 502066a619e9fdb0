import { useEffect, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { LaunchExecution } from "../../../components/launch/launch-execution.tsx";
import { useLaunchExecution } from "../../../components/launch/use-launch-execution.ts";
import { ContentLayout } from "../../../components/layouts/content-layout.tsx";
import { LoadingScreen } from "../../../components/ui/loading-screen.tsx";
import { usePublicConfig } from "../../../lib/public-config.ts";
import { useAuth } from "../../auth/hooks/use-auth.ts";
import { executeBundle } from "../api/execute-bundle.ts";
import { usePlanLaunch } from "../api/plan-launch.ts";
import { useLaunchActions } from "../hooks/use-launch-actions.ts";
import { useLaunchData } from "../hooks/use-launch-data.ts";
import { useWalletFunding } from "../hooks/use-wallet-funding.ts";
import { mainActions } from "../utils/main-action.ts";
import { fieldErrors } from "../utils/validate-launch-form.ts";
import { walletProblemOf } from "../utils/wallet-problem.ts";
import { BlockFitNote } from "./block-fit-note.tsx";
import { BundleWalletsSection } from "./bundle-wallets-section.tsx";
import { DelayedBundleSection } from "./delayed-bundle-section.tsx";
import { DeployerWalletSection } from "./deployer-wallet-section.tsx";
import { DownloadWalletsModal } from "./download-wallets-modal.tsx";
import { FundingPanel } from "./funding-panel.tsx";
import { LaunchSummaryPanel } from "./launch-summary-panel.tsx";
import { LaunchedDraft } from "./launched-draft.tsx";
import { MainActions } from "./main-actions.tsx";
import { TipPayerSection } from "./tip-payer-section.tsx";
import { TokenInfoSection } from "./token-info-section.tsx";
import { WalletsModal } from "./wallets-modal.tsx";

export function LaunchPage() {
  const [params] = useSearchParams();
  const draftId = params.get("draft");
  const navigate = useNavigate();
  const { status: authStatus, authKey } = useAuth();
  const authenticated = authStatus === "authenticated";
  const config = usePublicConfig();
  const data = useLaunchData(draftId, authenticated);
  const { form, set, wallets, setStatus } = data;
  // A draft that launched (or is launching) opens read-only: nothing of it can change.
  const opened = data.draft;
  const launched = opened?.status === "executed" || opened?.status === "executing";
  const plan = usePlanLaunch(form, wallets, authenticated && !launched);
  const funding = useWalletFunding(plan.data, wallets, authenticated && !launched);
  // A paid draft launches in place (POST /api/bundle/execute), as it would from /drafts.
  const execution = useLaunchExecution({
    execute: (id) => executeBundle(id, authKey ?? ""),
  });
  // The terminal follows the draft: its status (launching, launched, back to paid) is the page's.
  const launchStatus = execution.watching?.status;
  useEffect(() => {
    if (launchStatus) setStatus(launchStatus);
  }, [launchStatus, setStatus]);
  const actions = useLaunchActions({
    draftId,
    status: data.status,
    form,
    wallets,
    setWallets: data.setWallets,
    balances: funding.balances,
    refreshBalances: funding.refresh,
    onReadyToLaunch: execution.ask,
  });
  const [showWallets, setShowWallets] = useState(false);

  if (draftId && data.loadingDraft) return <LoadingScreen label="loading draft" />;
  if (draftId && opened && launched)
    return <LaunchedDraft draft={opened} explorerUrl={config.data?.explorerUrl ?? null} />;

  const errors = fieldErrors(form, wallets);
  // A wallet the server refused (saving, amounts, or the plan): its row is marked in the list.
  const walletProblem = actions.walletProblem ?? walletProblemOf(plan.error);
  const { primary, secondary } = mainActions({
    wallets,
    missingFunds: funding.missingFunds,
    status: data.status,
  });
  const onPrimary = {
    "generate-wallets": actions.onGenerateWallets,
    "generate-amounts": actions.onGenerateAmounts,
    save: actions.onSave,
  }[primary];

  // Generating wallets or their amounts is the bundle wallets' business: the button sits there.
  const aboutWallets = primary !== "save";
  const mainButtons = (
    <MainActions
      primary={primary}
      secondary={secondary}
      editing={Boolean(draftId)}
      busy={actions.busy.wallets || actions.busy.amounts || actions.busy.save}
      onPrimary={() => void onPrimary()}
      onMissingFunds={actions.goToDisperser}
      onPay={() => void actions.onPay()}
      onExecute={() => void actions.onExecute()}
    />
  );

  return (
    <ContentLayout title={draftId ? "Edit Draft" : "Launch a Token"}>
      {draftId && (
        <Link to="/drafts" className="mb-4 inline-block text-dim hover:text-accent">
          [back to drafts]
        </Link>
      )}
      <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
        <div className="flex flex-col gap-6">
          <TokenInfoSection form={form} set={set} errors={errors} />
          <DeployerWalletSection form={form} set={set} errors={errors} />
          <TipPayerSection form={form} set={set} errors={errors} />
          <BundleWalletsSection
            form={form}
            set={set}
            wallets={wallets}
            onAddWallets={data.addWallets}
            onClearWallets={() => data.setWallets([])}
            onViewWallets={() => setShowWallets(true)}
            onRegenerateAmounts={() => void actions.onGenerateAmounts()}
            regenerating={actions.busy.amounts}
            problem={walletProblem}
            blockFit={
              <BlockFitNote walletCount={wallets.length || Number(form.walletCount) || 0} />
            }
            footer={aboutWallets && mainButtons}
          />
          {wallets.length > 0 && (
            <DelayedBundleSection form={form} set={set} errors={errors} wallets={wallets} />
          )}
        </div>
        <aside className="flex flex-col gap-6 lg:sticky lg:top-20 lg:self-start">
          {funding.hasAmounts && <LaunchSummaryPanel plan={plan} />}
          {funding.hasAmounts && (
            <FundingPanel
              rows={funding.rows}
              balances={funding.balances}
              faucet={config.data?.faucet === true}
              funding={actions.funding}
              planning={plan.isFetching}
              refreshing={funding.refreshing}
              onFund={(rows) => void actions.fund(rows)}
              onRefresh={funding.refresh}
              stepOf={actions.faucetStepOf}
              explorerUrl={config.data?.explorerUrl ?? null}
            />
          )}
          {!aboutWallets && mainButtons}
        </aside>
      </div>
      {showWallets && (
        <WalletsModal
          wallets={wallets}
          problem={walletProblem}
          balances={funding.balances}
          refreshing={funding.refreshing}
          onRefresh={funding.refresh}
          onClose={() => setShowWallets(false)}
        />
      )}
      {actions.toDownload && (
        <DownloadWalletsModal wallets={actions.toDownload} onClose={actions.closeDownload} />
      )}
      <LaunchExecution
        execution={execution}
        authKey={authKey}
        explorerUrl={config.data?.explorerUrl ?? null}
        // Launched: the drafts list shows it as such, 10 s later (as /drafts refreshes).
        onSucceeded={() => navigate("/drafts")}
      />
    </ContentLayout>
  );
}
