import { ContentLayout } from "../../../components/layouts/content-layout.tsx";

export function ToolsPage() {
  return (
    <ContentLayout title="Other Tools">
      <p className="text-dim">coming in a later release</p>
    </ContentLayout>
  );
}
