import { Section } from "../../../components/ui/section.tsx";
import { usePublicConfig } from "../../../lib/public-config.ts";
import { usePendingClaims } from "../api/get-admin-claims.ts";
import { AdminClaimsTable } from "./admin-claims-table.tsx";

/** Every user's pending referral claims, so none waits unseen; a payout on its way is followed. */
export function PendingClaimsSection() {
  const claims = usePendingClaims();
  const explorerUrl = usePublicConfig().data?.explorerUrl ?? null;
  const total = claims.data?.pagination.total ?? 0;
  return (
    <Section
      title="Pending Claims"
      aside={claims.data && <span className="text-xs text-dim">{total} pending</span>}
    >
      {claims.isPending && <p className="text-sm text-dim">loading claims...</p>}
      {claims.isError && <p className="text-sm text-bad">Failed to load admin data</p>}
      {claims.data && (
        <AdminClaimsTable
          claims={claims.data.claims}
          explorerUrl={explorerUrl}
          withUser
          empty="No claims are waiting."
        />
      )}
    </Section>
  );
}
