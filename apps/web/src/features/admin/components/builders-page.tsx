import { Link } from "react-router";
import { BuilderStatsTables } from "../../../components/builder-stats-table.tsx";
import { ContentLayout } from "../../../components/layouts/content-layout.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { useBuilderStats } from "../api/get-builder-stats.ts";
import { ADMIN_MESSAGES } from "../utils/admin-messages.ts";

/**
 * /admin/builders: which builders take and land the bundles the server sends (launches, sells,
 * auto-sell waves, bumps), over 24 hours and 7 days. A landing is the chain's word: the landed
 * block holds that builder's tip.
 */
export function BuildersPage() {
  const stats = useBuilderStats();
  return (
    <ContentLayout title="Builders">
      <div className="flex flex-col gap-4">
        <Link to="/admin" className="text-dim hover:text-accent">
          [back]
        </Link>
        {stats.isPending && <p className="text-dim">loading builders...</p>}
        {stats.isError && !stats.data && (
          <div className="flex items-center gap-4" role="alert">
            <p className="text-bad">{ADMIN_MESSAGES.loadFailed}</p>
            <Button variant="bracket" onClick={() => void stats.refetch()}>
              [retry]
            </Button>
          </div>
        )}
        {stats.data && <BuilderStatsTables windows={stats.data.windows} />}
      </div>
    </ContentLayout>
  );
}
