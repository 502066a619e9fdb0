import {
  ADMIN_LOG_PAGE_SIZE,
  type AdminClaim,
  type AdminNewsItem,
  type AdminStats,
  type AdminUserDetail,
  type AdminUserRow,
  type AuditEntry,
  type Role,
} from "@bundler/shared";
import { HttpResponse, http } from "msw";
import { LOCAL_CONFIG, PAYMENT_ADDRESS } from "./fixtures.ts";
import { claimFixture, referralInfoFixture } from "./referral-handlers.ts";

const API = "/api/admin/dashboard";

/** User `n`'s id: a uuid ending in n. */
export const userId = (n: number) => `0a1b2c3d-4e5f-4a6b-8c7d-${String(n).padStart(12, "0")}`;

/** User n of a list: launchCount n % 7, a key prefix and device id that name n. */
export const userRowFixture = (n: number, overrides: Partial<AdminUserRow> = {}): AdminUserRow => ({
  _id: userId(n),
  key: `lbk_${String(n).padStart(2, "0")}`,
  deviceId: `device-${String(n).padStart(3, "0")}`,
  role: "user",
  isActive: true,
  launchCount: n % 7,
  totalSpent: String((n % 5) / 10),
  createdAt: new Date(Date.UTC(2026, 0, 1 + n)).toISOString(),
  lastUsedAt: null,
  ...overrides,
});

export const statsFixture = (): AdminStats => ({
  users: { total: 45, active: 44, admins: 2, superadmins: 1 },
  launches: { total: 7 },
  drafts: { total: 30, paid: 9, executed: 7 },
  revenue: { total: "4.6", currency: "BNB", launchFees: "4.5", accessKeys: "0.1" },
  referrals: { earned: "0.002", claimed: "0.001", pending: "0.0005" },
  daily: Array.from({ length: 30 }, (_, day) => ({
    date: new Date(Date.UTC(2026, 10, day + 1)).toISOString().slice(0, 10),
    launches: day % 3,
    revenue: String((day % 3) * 0.5),
  })),
});

export const adminClaimFixture = (overrides: Partial<AdminClaim> = {}): AdminClaim => ({
  ...claimFixture({ amount: "0.0005" }),
  userId: userId(3),
  keyPrefix: "lbk_03",
  ...overrides,
});

export const userDetailFixture = (overrides: Partial<AdminUserDetail> = {}): AdminUserDetail => {
  const row = userRowFixture(3);
  return {
    ...row,
    stats: { launchCount: row.launchCount, totalSpent: row.totalSpent },
    launches: [
      {
        _id: "launch-1",
        ticker: "MCAT",
        image: "",
        address: `0x${"c".repeat(40)}`,
        walletCount: 3,
        createdAt: new Date(2026, 10, 20, 10, 0).toISOString(),
      },
    ],
    drafts: [
      {
        _id: "3f0b7c1e-8a51-4c9d-9a57-6f1c2b3d4e5f",
        name: "Moon Cat",
        ticker: "MCAT",
        symbol: "MCAT",
        paymentAddress: PAYMENT_ADDRESS,
        paymentAmount: "0.5",
        status: "executed",
        createdAt: new Date(2026, 10, 19, 9, 0).toISOString(),
        deleted: false,
      },
      {
        _id: "4f0b7c1e-8a51-4c9d-9a57-6f1c2b3d4e5f",
        name: "No Pay",
        ticker: "NOPE",
        symbol: "NOPE",
        paymentAddress: null,
        paymentAmount: null,
        status: "draft",
        createdAt: new Date(2026, 10, 18, 9, 0).toISOString(),
        deleted: false,
      },
    ],
    referral: referralInfoFixture({ code: "CATS", uses: 1, earned: "0.0005", pending: "0.0005" }),
    referredBy: null,
    claims: [adminClaimFixture()],
    ...overrides,
  };
};

export const auditEntryFixture = (n: number, overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  id: `audit-${n}`,
  at: new Date(Date.UTC(2026, 10, 24, 12, n)).toISOString(),
  actor: { userId: userId(1), keyPrefix: "lbk_01", role: "superadmin" },
  action: "role_change",
  target: { type: "user", id: userId(3) },
  reason: null,
  details: { from: "user", to: "admin" },
  ...overrides,
});

/** News item `n` as the admin list answers it (shown unless overridden). */
export const newsFixture = (n: number, overrides: Partial<AdminNewsItem> = {}): AdminNewsItem => ({
  id: `news-${n}`,
  content: `News number ${n}.`,
  label: "INFO",
  labelColor: "#f0b90b",
  date: new Date(Date.UTC(2026, 10, 20 + n)).toISOString(),
  active: true,
  ...overrides,
});

type SortField = "key" | "role" | "isActive" | "launchCount" | "totalSpent";

const compare = (a: AdminUserRow, b: AdminUserRow, field: SortField): number => {
  const [x, y] = [a[field], b[field]];
  if (typeof x === "number" && typeof y === "number") return x - y;
  if (field === "totalSpent") return Number(x) - Number(y);
  return String(x).localeCompare(String(y));
};

/**
 * `/api/admin/dashboard/*` over `state` as it is when asked, sorting and paging users the way
 * the server does (ties by id). Records every users query and every write's body.
 */
export function adminServer(initial: { users?: AdminUserRow[]; detail?: AdminUserDetail } = {}) {
  const state = {
    users: initial.users ?? Array.from({ length: 45 }, (_, n) => userRowFixture(n + 1)),
    detail: initial.detail ?? userDetailFixture(),
    stats: statsFixture(),
    pendingClaims: [adminClaimFixture()],
    audit: Array.from({ length: 25 }, (_, n) => auditEntryFixture(25 - n)),
    usersQueries: [] as Record<string, string>[],
    news: [newsFixture(1), newsFixture(2, { active: false })],
    newsWrites: [] as { method: string; id: string | null; body: unknown }[],
    roleChanges: [] as { id: string; role: Role }[],
    activeChanges: [] as { id: string; isActive: boolean }[],
    keyViews: [] as { id: string; reason: string | null }[],
    decisions: [] as string[],
    auditPages: [] as number[],
  };
  const handlers = [
    http.get("/api/config", () => HttpResponse.json({ success: true, config: LOCAL_CONFIG })),
    http.get(`${API}/stats`, () => HttpResponse.json({ success: true, stats: state.stats })),
    http.get(`${API}/users`, ({ request }) => {
      const query = Object.fromEntries(new URL(request.url).searchParams);
      state.usersQueries.push(query);
      const page = Number(query.page ?? 1);
      const limit = Number(query.limit ?? 20);
      const field = (query.sortField ?? "launchCount") as SortField;
      const sign = query.sortDirection === "asc" ? 1 : -1;
      // The server's search, over every user: here a key's start, a device id's part or an id.
      const search = (query.search ?? "").toLowerCase();
      const matching = state.users.filter(
        (u) =>
          !search ||
          u.key.toLowerCase().startsWith(search) ||
          (u.deviceId ?? "").toLowerCase().includes(search) ||
          u._id === search,
      );
      const sorted = [...matching].sort(
        (a, b) => sign * compare(a, b, field) || a._id.localeCompare(b._id),
      );
      return HttpResponse.json({
        success: true,
        users: sorted.slice((page - 1) * limit, page * limit),
        pagination: {
          page,
          limit,
          total: sorted.length,
          pages: Math.ceil(sorted.length / limit),
        },
      });
    }),
    http.get(`${API}/users/:id`, ({ params }) =>
      params.id === state.detail._id
        ? HttpResponse.json({ success: true, user: state.detail })
        : HttpResponse.json({ success: false, error: "Not found" }, { status: 404 }),
    ),
    http.put(`${API}/users/:id/role`, async ({ params, request }) => {
      const { role } = (await request.json()) as { role: Role };
      state.roleChanges.push({ id: String(params.id), role });
      state.detail = { ...state.detail, role };
      return HttpResponse.json({
        success: true,
        user: { _id: params.id, role },
        message: `Role updated to ${role}`,
      });
    }),
    http.put(`${API}/users/:id/active`, async ({ params, request }) => {
      const { isActive } = (await request.json()) as { isActive: boolean };
      state.activeChanges.push({ id: String(params.id), isActive });
      state.detail = { ...state.detail, isActive };
      return HttpResponse.json({
        success: true,
        user: { _id: params.id, isActive },
        message: isActive ? "Key activated" : "Key deactivated",
      });
    }),
    http.get(`${API}/drafts/:id/payment-key`, ({ params, request }) => {
      state.keyViews.push({
        id: String(params.id),
        reason: new URL(request.url).searchParams.get("reason"),
      });
      return HttpResponse.json({
        success: true,
        address: PAYMENT_ADDRESS,
        privateKey: `0x${"5".repeat(64)}`,
      });
    }),
    http.get(`${API}/claims`, () =>
      HttpResponse.json({
        success: true,
        claims: state.pendingClaims,
        pagination: { page: 1, limit: 20, total: state.pendingClaims.length, pages: 1 },
      }),
    ),
    http.post(`${API}/claims/:id/:decision`, ({ params }) => {
      state.decisions.push(`${params.decision} ${params.id}`);
      const claim = adminClaimFixture({
        id: String(params.id),
        status: params.decision === "reject" ? "rejected" : "pending",
        txHash: params.decision === "complete" ? `0x${"ab".repeat(32)}` : null,
      });
      return HttpResponse.json({
        success: true,
        claim,
        message: params.decision === "reject" ? "Claim rejected" : "Payout sent",
      });
    }),
    http.get(`${API}/news`, () => HttpResponse.json({ success: true, news: state.news })),
    http.post(`${API}/news`, async ({ request }) => {
      const body = (await request.json()) as Omit<AdminNewsItem, "id" | "date" | "active">;
      state.newsWrites.push({ method: "POST", id: null, body });
      const item = newsFixture(state.news.length + 1, { ...body });
      state.news = [item, ...state.news];
      return HttpResponse.json({ success: true, item, message: "News published" });
    }),
    http.put(`${API}/news/:id/visibility`, async ({ params, request }) => {
      const body = (await request.json()) as { active: boolean };
      state.newsWrites.push({ method: "PUT visibility", id: String(params.id), body });
      state.news = state.news.map((n) => (n.id === params.id ? { ...n, ...body } : n));
      const item = state.news.find((n) => n.id === params.id);
      return HttpResponse.json({
        success: true,
        item,
        message: body.active ? "News shown in the banner" : "News hidden from the banner",
      });
    }),
    http.put(`${API}/news/:id`, async ({ params, request }) => {
      const body = (await request.json()) as Partial<AdminNewsItem>;
      state.newsWrites.push({ method: "PUT", id: String(params.id), body });
      state.news = state.news.map((n) => (n.id === params.id ? { ...n, ...body } : n));
      const item = state.news.find((n) => n.id === params.id);
      return HttpResponse.json({ success: true, item, message: "News updated" });
    }),
    http.get(`${API}/audit`, ({ request }) => {
      const page = Number(new URL(request.url).searchParams.get("page") ?? 1);
      state.auditPages.push(page);
      return HttpResponse.json({
        success: true,
        entries: state.audit.slice((page - 1) * ADMIN_LOG_PAGE_SIZE, page * ADMIN_LOG_PAGE_SIZE),
        pagination: {
          page,
          limit: ADMIN_LOG_PAGE_SIZE,
          total: state.audit.length,
          pages: Math.ceil(state.audit.length / ADMIN_LOG_PAGE_SIZE),
        },
      });
    }),
  ];
  return { state, handlers };
}
