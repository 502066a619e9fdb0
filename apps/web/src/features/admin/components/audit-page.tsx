import { plural } from "@bundler/shared";
import { useEffect } from "react";
import toast from "react-hot-toast";
import { Link } from "react-router";
import { ContentLayout } from "../../../components/layouts/content-layout.tsx";
import { Pagination } from "../../../components/ui/pagination.tsx";
import { usePageParam } from "../../../hooks/use-page-param.ts";
import { useAuditLog } from "../api/get-audit-log.ts";
import { ADMIN_MESSAGES } from "../utils/admin-messages.ts";
import { AuditTable } from "./audit-table.tsx";

/** /admin/audit (superadmins): every privileged action, newest first, 20 a page. */
export function AuditPage() {
  const [page, setPage] = usePageParam();
  const log = useAuditLog(page);

  useEffect(() => {
    if (log.isError) toast.error(ADMIN_MESSAGES.loadFailed, { id: "admin-load" });
  }, [log.isError]);

  return (
    <ContentLayout title="Audit Log">
      <div className="flex flex-col gap-4">
        <Link to="/admin" className="self-start text-dim hover:text-accent">
          [back]
        </Link>
        {log.isPending && <p className="text-dim">loading the audit log...</p>}
        {log.isError && !log.data && <p className="text-bad">{ADMIN_MESSAGES.loadFailed}</p>}
        {log.data && (
          <>
            <p className="text-xs text-dim">
              {plural(log.data.pagination.total, "action")} on record, newest first
            </p>
            <div className={log.isPlaceholderData ? "opacity-60" : ""}>
              <AuditTable entries={log.data.entries} />
            </div>
            <Pagination
              page={log.data.pagination.page}
              pageCount={log.data.pagination.pages}
              onPageChange={setPage}
              label="Audit pages"
            />
          </>
        )}
      </div>
    </ContentLayout>
  );
}
