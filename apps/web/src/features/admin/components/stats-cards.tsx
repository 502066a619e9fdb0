import type { AdminStats } from "@bundler/shared";
import { formatBnb } from "../../../lib/bnb.ts";
import { StatCard } from "./stat-card.tsx";

/** SPEC §3's admin stats: users, launches, drafts, revenue (with its currency), referrals. */
export function StatsCards({ stats }: { stats: AdminStats }) {
  const { users, launches, drafts, revenue, referrals } = stats;
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <StatCard label="Users" value={String(users.total)} testId="stat-users">
        <span>{users.active} active</span>
        <span>
          {users.admins} admins · {users.superadmins} superadmins
        </span>
      </StatCard>
      <StatCard label="Launches" value={String(launches.total)} testId="stat-launches">
        <span>
          drafts: {drafts.total} total · {drafts.paid} paid · {drafts.executed} executed
        </span>
      </StatCard>
      <StatCard
        label="Revenue"
        value={`${formatBnb(revenue.total)} ${revenue.currency}`}
        testId="stat-revenue"
      >
        <span>launch fees {formatBnb(revenue.launchFees)} BNB</span>
        <span>access keys {formatBnb(revenue.accessKeys)} BNB</span>
      </StatCard>
      <StatCard
        label="Referral rewards"
        value={`${formatBnb(referrals.earned)} BNB`}
        testId="stat-referrals"
      >
        <span>claimed {formatBnb(referrals.claimed)} BNB</span>
        <span>pending {formatBnb(referrals.pending)} BNB</span>
      </StatCard>
    </div>
  );
}
