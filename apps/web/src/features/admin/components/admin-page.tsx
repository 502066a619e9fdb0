import { ContentLayout } from "../../../components/layouts/content-layout.tsx";

export function AdminPage() {
  return (
    <ContentLayout title="Admin Dashboard">
      <p className="text-dim">coming in a later release</p>
    </ContentLayout>
  );
}
