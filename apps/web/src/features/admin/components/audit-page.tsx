import { ContentLayout } from "../../../components/layouts/content-layout.tsx";

export function AuditPage() {
  return (
    <ContentLayout title="Audit Log">
      <p className="text-dim">loading...</p>
    </ContentLayout>
  );
}
