import type { AdminDraftRow } from "@bundler/shared";
import { useCallback, useEffect, useState } from "react";
import toast from "react-hot-toast";
import { Link, useNavigate, useParams } from "react-router";
import { ContentLayout } from "../../../components/layouts/content-layout.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { usePublicConfig } from "../../../lib/public-config.ts";
import { useAuth } from "../../auth/hooks/use-auth.ts";
import { useAdminUser } from "../api/get-admin-user.ts";
import { ADMIN_MESSAGES } from "../utils/admin-messages.ts";
import { AdminClaimsTable } from "./admin-claims-table.tsx";
import { DraftsTable } from "./drafts-table.tsx";
import { LaunchesTable } from "./launches-table.tsx";
import { PaymentKeyDialog } from "./payment-key-dialog.tsx";
import { UserDetails } from "./user-details.tsx";

/** /admin/key/{id}: one user's details, role and key controls, launches, drafts and claims. */
export function AdminUserPage() {
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const { role } = useAuth();
  const explorerUrl = usePublicConfig().data?.explorerUrl ?? null;
  const user = useAdminUser(id);
  const [viewing, setViewing] = useState<AdminDraftRow | null>(null);
  const viewKey = useCallback((draft: AdminDraftRow) => setViewing(draft), []);

  // SPEC §2: a failed load shows the error, then goes back to /admin.
  useEffect(() => {
    if (!user.isError) return;
    toast.error(ADMIN_MESSAGES.userLoadFailed, { id: "admin-user-load" });
    navigate("/admin", { replace: true });
  }, [user.isError, navigate]);

  const detail = user.data?.user;
  return (
    <ContentLayout title="User Details">
      <div className="flex flex-col gap-6">
        <Link to="/admin" className="self-start text-dim hover:text-accent">
          [back]
        </Link>
        {user.isPending && <p className="text-dim">loading user...</p>}
        {detail && (
          <>
            <Section title="User">
              <UserDetails user={detail} canEditRole={role === "superadmin"} />
            </Section>
            <Section title="Referral Claims">
              <AdminClaimsTable
                claims={detail.claims}
                explorerUrl={explorerUrl}
                empty="No claims."
              />
            </Section>
            <Section title="Launches">
              <LaunchesTable launches={detail.launches} explorerUrl={explorerUrl} />
            </Section>
            <Section title="Drafts">
              <DraftsTable drafts={detail.drafts} explorerUrl={explorerUrl} onViewKey={viewKey} />
            </Section>
          </>
        )}
      </div>
      {viewing && <PaymentKeyDialog draft={viewing} onClose={() => setViewing(null)} />}
    </ContentLayout>
  );
}
