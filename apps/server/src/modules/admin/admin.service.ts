import {
  ADMIN_LOG_PAGE_SIZE,
  ADMIN_STATS_DAYS,
  type AdminStats,
  type AdminUserDetail,
  type AdminUserRow,
  type adminUsersQuerySchema,
  type ClaimStatus,
  draftLogoPath,
  type Pagination,
} from "@bundler/shared";
import { formatEther } from "viem";
import type { z } from "zod";
import { NotFoundError } from "../../lib/errors.ts";
import type { NewsService } from "../meta/news.service.ts";
import { presentAdminClaim } from "../referral/claim-presenter.ts";
import type { ReferralService } from "../referral/referral.service.ts";
import type { AdminRepository, AdminUserRecord } from "./admin.repository.ts";
import type { AuditRepository } from "./audit.repository.ts";

const DAY_MS = 24 * 3600 * 1000;

const pagination = (page: number, limit: number, total: number): Pagination => ({
  page,
  limit,
  total,
  pages: Math.ceil(total / limit),
});

const presentUser = (row: AdminUserRecord): AdminUserRow => ({
  _id: row.id,
  key: row.keyPrefix.slice(0, 6),
  deviceId: row.deviceId,
  role: row.role,
  isActive: row.isActive,
  launchCount: row.launchCount,
  totalSpent: formatEther(BigInt(row.totalSpent)),
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/** What admins read: platform statistics, users and their history, claims, the audit log. */
export class AdminService {
  constructor(
    private readonly repository: AdminRepository,
    private readonly audit: AuditRepository,
    private readonly referrals: ReferralService,
    private readonly newsItems: NewsService,
  ) {}

  /** Every news item, shown or hidden, newest first. */
  news() {
    return this.newsItems.all();
  }

  async stats(now = new Date()): Promise<AdminStats> {
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const since = new Date(today - (ADMIN_STATS_DAYS - 1) * DAY_MS);
    const [counts, daily, referrals] = await Promise.all([
      this.repository.counts(),
      this.repository.daily(since),
      this.referrals.totals(),
    ]);
    const launchFees = counts.revenue.get("launch_fee") ?? 0n;
    const accessKeys = counts.revenue.get("access_key") ?? 0n;
    const bnb = (wei: string) => formatEther(BigInt(wei));
    return {
      users: counts.users,
      launches: { total: counts.launches },
      drafts: counts.drafts,
      revenue: {
        total: formatEther(launchFees + accessKeys),
        currency: "BNB",
        launchFees: formatEther(launchFees),
        accessKeys: formatEther(accessKeys),
      },
      referrals: {
        earned: bnb(referrals.earned),
        claimed: bnb(referrals.claimed),
        pending: bnb(referrals.pending),
      },
      daily: Array.from({ length: ADMIN_STATS_DAYS }, (_, i) => {
        const date = new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10);
        return {
          date,
          launches: daily.launches.get(date) ?? 0,
          revenue: formatEther(daily.revenue.get(date) ?? 0n),
        };
      }),
    };
  }

  async users(query: z.output<typeof adminUsersQuerySchema>) {
    const { page, limit, sortField, sortDirection, search } = query;
    const { users, total } = await this.repository.usersPage(
      sortField,
      sortDirection,
      limit,
      (page - 1) * limit,
      search,
    );
    return { users: users.map(presentUser), pagination: pagination(page, limit, total) };
  }

  async user(id: string): Promise<AdminUserDetail> {
    const row = await this.repository.user(id);
    if (!row) throw new NotFoundError("User not found");
    const [launches, drafts, referral, claims] = await Promise.all([
      this.repository.launchesOf(id),
      this.repository.draftsOf(id),
      this.referrals.info(id),
      this.referrals.claims(id),
    ]);
    const user = presentUser(row);
    return {
      ...user,
      stats: { launchCount: user.launchCount, totalSpent: user.totalSpent },
      launches: launches.map((launch) => ({
        _id: launch.id,
        ticker: launch.ticker,
        image: launch.logoHash ? draftLogoPath(launch.logoHash) : "",
        address: launch.tokenAddress,
        walletCount: launch.walletCount,
        createdAt: launch.createdAt.toISOString(),
      })),
      drafts: drafts.map((draft) => ({
        _id: draft.id,
        name: draft.name,
        ticker: draft.symbol,
        symbol: draft.symbol,
        paymentAddress: draft.paymentAddress,
        paymentAmount: draft.paymentAmount ? formatEther(BigInt(draft.paymentAmount)) : null,
        status: draft.status,
        createdAt: draft.createdAt.toISOString(),
        deleted: draft.deletedAt !== null,
      })),
      referral,
      referredBy: row.referredBy,
      claims: claims.map(presentAdminClaim),
    };
  }

  async claims(status: ClaimStatus | undefined, page: number) {
    const limit = ADMIN_LOG_PAGE_SIZE;
    const { claims, total } = await this.referrals.claimsPage(status, limit, (page - 1) * limit);
    return { claims: claims.map(presentAdminClaim), pagination: pagination(page, limit, total) };
  }

  async auditLog(page: number) {
    const limit = ADMIN_LOG_PAGE_SIZE;
    const { entries, total } = await this.audit.page(limit, (page - 1) * limit);
    return { entries, pagination: pagination(page, limit, total) };
  }
}
