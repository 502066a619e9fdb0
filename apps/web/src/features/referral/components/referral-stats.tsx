import type { ReferralInfo } from "@bundler/shared";
import { formatBnb } from "../../../lib/bnb.ts";

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="flex flex-col gap-1 rounded-sm border border-line bg-ink px-3 py-2">
      <span className="text-xs uppercase tracking-wide text-faint">{label}</span>
      <span className="text-lg tabular-nums text-fg" data-testid={testId}>
        {value}
      </span>
    </div>
  );
}

/** Total Uses and Total Earned (SPEC §2), with what can be claimed and what a claim holds. */
export function ReferralStats({ info }: { info: ReferralInfo }) {
  return (
    <div className="grid grid-cols-2 gap-3">
      <Stat label="Total Uses" value={String(info.uses)} testId="referral-uses" />
      <Stat label="Total Earned" value={`${formatBnb(info.earned)} BNB`} testId="referral-earned" />
      <Stat
        label="Claimable"
        value={`${formatBnb(info.claimable)} BNB`}
        testId="referral-claimable"
      />
      <Stat label="Pending" value={`${formatBnb(info.pending)} BNB`} testId="referral-pending" />
    </div>
  );
}
