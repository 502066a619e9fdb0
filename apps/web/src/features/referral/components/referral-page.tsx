import { ContentLayout } from "../../../components/layouts/content-layout.tsx";

export function ReferralPage() {
  return (
    <ContentLayout title="Referral Program">
      <p className="text-dim">coming in a later release</p>
    </ContentLayout>
  );
}
