import { ContentLayout } from "../../../components/layouts/content-layout.tsx";

export function BumperPage() {
  return (
    <ContentLayout title="Bumper">
      <p className="text-dim">coming in a later release</p>
    </ContentLayout>
  );
}
