import { ContentLayout } from "../../../components/layouts/content-layout.tsx";

export function WalletsPage() {
  return (
    <ContentLayout title="Wallet Manager">
      <p className="text-dim">coming in a later release</p>
    </ContentLayout>
  );
}
