import type { AdminUserDetail } from "@bundler/shared";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatBnb } from "../../../lib/bnb.ts";
import { formatDateTime } from "../../../lib/format-date.ts";
import { ActiveControl } from "./active-control.tsx";
import { RoleControl } from "./role-control.tsx";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[9rem_1fr] gap-3 border-b border-line py-1.5 last:border-0">
      <dt className="text-dim">{label}</dt>
      <dd className="min-w-0 break-all text-fg">{children}</dd>
    </div>
  );
}

/** SPEC §3 User: who, since when, what they spent and launched, their referral standing. */
export function UserDetails({
  user,
  canEditRole,
}: {
  user: AdminUserDetail;
  canEditRole: boolean;
}) {
  const { referral } = user;
  return (
    <dl className="text-sm">
      <Row label="Key">
        <span data-testid="user-key">{user.key}…</span>
      </Row>
      <Row label="Device ID">{user.deviceId ?? "—"}</Row>
      <Row label="Role">
        <RoleControl userId={user._id} role={user.role} editable={canEditRole} />
      </Row>
      <Row label="Status">
        <ActiveControl userId={user._id} isActive={user.isActive} />
      </Row>
      <Row label="Created">{formatDateTime(user.createdAt)}</Row>
      <Row label="Last used">{user.lastUsedAt ? formatDateTime(user.lastUsedAt) : "—"}</Row>
      <Row label="Launches">{user.stats.launchCount}</Row>
      <Row label="Total spent">{formatBnb(user.stats.totalSpent)} BNB</Row>
      <Row label="Referral code">{referral.code ?? "—"}</Row>
      <Row label="Referral uses">{referral.uses}</Row>
      <Row label="Rewards">
        earned {formatBnb(referral.earned)} · claimable {formatBnb(referral.claimable)} · pending{" "}
        {formatBnb(referral.pending)} · claimed {formatBnb(referral.claimed)} BNB
      </Row>
      <Row label="Referred by">
        {user.referredBy ? (
          <Link
            to={`/admin/key/${user.referredBy}`}
            className="underline decoration-dotted hover:text-accent"
          >
            the referrer's key
          </Link>
        ) : (
          "—"
        )}
      </Row>
    </dl>
  );
}
