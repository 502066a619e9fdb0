import { ContentLayout } from "../../../components/layouts/content-layout.tsx";

export function DisperserPage() {
  return (
    <ContentLayout title="Disperser">
      <p className="text-dim">coming in a later release</p>
    </ContentLayout>
  );
}
