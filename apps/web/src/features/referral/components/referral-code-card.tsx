import { referralLink } from "@bundler/shared";
import { CopyField } from "../../../components/ui/copy-field.tsx";

/** The code and the link to share (this site's origin + `?referral={code}`), each with [copy]. */
export function ReferralCodeCard({ code }: { code: string }) {
  return (
    <div className="flex flex-col gap-3">
      <CopyField
        label="Your code"
        value={code}
        copyLabel="Copy referral code"
        data-testid="referral-code"
      />
      <CopyField
        label="Your link"
        value={referralLink(window.location.origin, code)}
        copyLabel="Copy referral link"
        data-testid="referral-link"
      />
    </div>
  );
}
