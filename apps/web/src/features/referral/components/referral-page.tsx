import { ContentLayout } from "../../../components/layouts/content-layout.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { LoadProblem } from "../../../components/ui/load-problem.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { failureText } from "../../../lib/api-error.ts";
import { usePublicConfig } from "../../../lib/public-config.ts";
import { useReferralClaims } from "../api/get-referral-claims.ts";
import { useReferralInfo } from "../api/get-referral-info.ts";
import { ClaimForm } from "./claim-form.tsx";
import { ClaimsTable } from "./claims-table.tsx";
import { CreateCodeForm } from "./create-code-form.tsx";
import { ReferralCodeCard } from "./referral-code-card.tsx";
import { ReferralExplainer } from "./referral-explainer.tsx";
import { ReferralStats } from "./referral-stats.tsx";

/** /referral: how it pays, the user's code and link, stats, claims and their history. */
export function ReferralPage() {
  const info = useReferralInfo();
  const claims = useReferralClaims();
  const explorerUrl = usePublicConfig().data?.explorerUrl ?? null;
  const refreshing = info.isFetching || claims.isFetching;
  const refresh = () => {
    void info.refetch();
    void claims.refetch();
  };

  return (
    <ContentLayout title="Referral Program">
      <div className="flex flex-col gap-6">
        <div className="flex justify-end">
          <Button variant="bracket" onClick={refresh} disabled={refreshing}>
            {refreshing ? "[refreshing...]" : "[refresh]"}
          </Button>
        </div>
        <Section title="How it works">
          <ReferralExplainer />
        </Section>

        {info.isPending && (
          <p className="flex items-center gap-2 text-dim">
            <Spinner /> loading your referral info...
          </p>
        )}
        {info.isError && (
          <LoadProblem
            message={failureText(info.error, "Failed to load referral info")}
            onRetry={refresh}
          />
        )}

        {info.data && (
          <>
            <div className="grid gap-6 md:grid-cols-2">
              <Section title="Your Referral Code">
                {info.data.code ? <ReferralCodeCard code={info.data.code} /> : <CreateCodeForm />}
              </Section>
              <Section title="Stats">
                <ReferralStats info={info.data} />
              </Section>
            </div>
            <Section title="Claim Rewards">
              <ClaimForm info={info.data} />
            </Section>
          </>
        )}

        <Section title="Claim History">
          {claims.isPending && <p className="text-sm text-dim">loading claims...</p>}
          {claims.isError && (
            <LoadProblem message={failureText(claims.error, "Failed to load claims")} />
          )}
          {claims.data && <ClaimsTable claims={claims.data.claims} explorerUrl={explorerUrl} />}
        </Section>
      </div>
    </ContentLayout>
  );
}
