import { ContentLayout } from "../../../components/layouts/content-layout.tsx";

export function AdminUserPage() {
  return (
    <ContentLayout title="User Details">
      <p className="text-dim">coming in a later release</p>
    </ContentLayout>
  );
}
