import { useEffect } from "react";
import toast from "react-hot-toast";
import { Link } from "react-router";
import { ContentLayout } from "../../../components/layouts/content-layout.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { useAuth } from "../../auth/hooks/use-auth.ts";
import { useAdminStats } from "../api/get-admin-stats.ts";
import { ADMIN_MESSAGES } from "../utils/admin-messages.ts";
import { NewsSection } from "./news-section.tsx";
import { PendingClaimsSection } from "./pending-claims-section.tsx";
import { StatsCards } from "./stats-cards.tsx";
import { StatsChartPanel } from "./stats-chart-panel.tsx";
import { UsersSection } from "./users-section.tsx";

/** /admin: platform stats and their daily chart, pending claims, the user list and the news. */
export function AdminPage() {
  const { role } = useAuth();
  const stats = useAdminStats();

  useEffect(() => {
    if (stats.isError) toast.error(ADMIN_MESSAGES.loadFailed, { id: "admin-load" });
  }, [stats.isError]);

  return (
    <ContentLayout title="Admin Dashboard">
      <div className="flex flex-col gap-6">
        <div className="flex items-center justify-between gap-4">
          <span className="text-xs text-dim">signed in as {role}</span>
          <span className="flex gap-4">
            <Link to="/admin/builders" className="text-dim hover:text-accent">
              [builders]
            </Link>
            {role === "superadmin" && (
              <>
                <Link to="/admin/preflight" className="text-dim hover:text-accent">
                  [preflight]
                </Link>
                <Link to="/admin/audit" className="text-dim hover:text-accent">
                  [audit log]
                </Link>
              </>
            )}
          </span>
        </div>
        {stats.isPending && <p className="text-dim">loading stats...</p>}
        {stats.isError && (
          <div className="flex items-center gap-4" role="alert">
            <p className="text-bad">{ADMIN_MESSAGES.loadFailed}</p>
            <Button variant="bracket" onClick={() => void stats.refetch()}>
              [retry]
            </Button>
          </div>
        )}
        {stats.data && (
          <>
            <StatsCards stats={stats.data.stats} />
            <StatsChartPanel daily={stats.data.stats.daily} />
          </>
        )}
        <PendingClaimsSection />
        <UsersSection />
        <NewsSection />
      </div>
    </ContentLayout>
  );
}
