import { z } from "zod";
import { roleSchema } from "./auth.ts";
import { defineRoute } from "./common.ts";
import { DRAFT_STATUSES } from "./drafts.ts";
import { addressSchema, bnbValueSchema } from "./money.ts";
import { claimSchema, referralInfoSchema } from "./referral.ts";

/** Where every admin route lives (SPEC §7). */
export const ADMIN_API = "/api/admin/dashboard";

/** SPEC §9: 20 users a page, sorted by launchCount descending unless asked otherwise. */
export const ADMIN_USERS_PAGE_SIZE = 20;
export const ADMIN_MAX_PAGE_SIZE = 100;
export const ADMIN_SORT_FIELDS = ["key", "role", "isActive", "launchCount", "totalSpent"] as const;
export type AdminSortField = (typeof ADMIN_SORT_FIELDS)[number];
export const SORT_DIRECTIONS = ["asc", "desc"] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];
export const ADMIN_DEFAULT_SORT = { sortField: "launchCount", sortDirection: "desc" } as const;
/** Audit rows and claims a page. */
export const ADMIN_LOG_PAGE_SIZE = 20;
/** Days the stats' daily series covers, today included. */
export const ADMIN_STATS_DAYS = 30;

const PAGE_MESSAGE = "page must be a whole number from 1 up";
const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${ADMIN_MAX_PAGE_SIZE}`;

const wholeNumber = (message: string, min: number, max: number) =>
  z
    .string({ error: message })
    .regex(/^\d{1,9}$/, message)
    .transform(Number)
    .pipe(z.number().min(min, message).max(max, message));

/** `?page=N`: 1-based, 1 when absent. */
export const pageQuerySchema = z.object({
  page: wholeNumber(PAGE_MESSAGE, 1, 1_000_000).default(1),
});

export const paginationSchema = z.object({
  page: z.number().int().min(1),
  limit: z.number().int().min(1),
  total: z.number().int().min(0),
  pages: z.number().int().min(0),
});
export type Pagination = z.infer<typeof paginationSchema>;

/** `GET /users` query: sorted by the server across every page. */
export const adminUsersQuerySchema = z.object({
  page: wholeNumber(PAGE_MESSAGE, 1, 1_000_000).default(1),
  limit: wholeNumber(LIMIT_MESSAGE, 1, ADMIN_MAX_PAGE_SIZE).default(ADMIN_USERS_PAGE_SIZE),
  sortField: z
    .enum(ADMIN_SORT_FIELDS, {
      error: `sortField must be one of ${ADMIN_SORT_FIELDS.join(", ")}`,
    })
    .default(ADMIN_DEFAULT_SORT.sortField),
  sortDirection: z
    .enum(SORT_DIRECTIONS, { error: "sortDirection must be asc or desc" })
    .default(ADMIN_DEFAULT_SORT.sortDirection),
  /**
   * Finds users across every page, case-insensitively: a key's start (or a whole key, matched
   * by its digest), a user id, a device id or a part of one, a role, any address of theirs
   * (a wallet key the server holds, a payment address, a token they launched or bump), or a
   * referral code.
   */
  search: z
    .string()
    .trim()
    .max(200, "The search must be at most 200 characters")
    .optional()
    .transform((value) => value || undefined),
});
export type AdminUsersQuery = z.input<typeof adminUsersQuerySchema>;

/** SPEC §3 User, as the admin list shows it: a key by its first 6 characters only. */
export const adminUserRowSchema = z.object({
  _id: z.string(),
  /** The key's first 6 characters. */
  key: z.string(),
  deviceId: z.string().nullable(),
  role: roleSchema,
  isActive: z.boolean(),
  launchCount: z.number().int().min(0),
  /** BNB: launch fees and key purchases this user paid. */
  totalSpent: bnbValueSchema,
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;

export const adminUsersRoute = defineRoute({
  method: "GET",
  path: `${ADMIN_API}/users`,
  access: "admin",
  query: adminUsersQuerySchema,
  body: undefined,
  response: z.object({
    success: z.literal(true),
    users: z.array(adminUserRowSchema),
    pagination: paginationSchema,
  }),
});

/** SPEC §3 Launch. */
export const adminLaunchSchema = z.object({
  _id: z.string(),
  ticker: z.string(),
  /** The logo's URL (or data URL), "" without one. */
  image: z.string(),
  address: addressSchema,
  walletCount: z.number().int().min(0),
  createdAt: z.string(),
});
export type AdminLaunch = z.infer<typeof adminLaunchSchema>;

/** SPEC §3 Admin draft row: `ticker` and `symbol` are both the token's symbol; `name` its name. */
export const adminDraftRowSchema = z.object({
  _id: z.string(),
  name: z.string(),
  ticker: z.string(),
  symbol: z.string(),
  paymentAddress: addressSchema.nullable(),
  /** BNB. */
  paymentAmount: bnbValueSchema.nullable(),
  status: z.enum(DRAFT_STATUSES),
  createdAt: z.string(),
  /** A deleted draft is still listed for admins (its payment address may hold money). */
  deleted: z.boolean(),
});
export type AdminDraftRow = z.infer<typeof adminDraftRowSchema>;

/** A claim as admins see it: whose it is. */
export const adminClaimSchema = claimSchema.extend({
  userId: z.string(),
  /** The claimant's key, first 6 characters. */
  keyPrefix: z.string(),
});
export type AdminClaim = z.infer<typeof adminClaimSchema>;

/** SPEC §3 User with stats, launches and drafts, plus its referral standing and claims. */
export const adminUserDetailSchema = adminUserRowSchema.extend({
  stats: z.object({ launchCount: z.number().int().min(0), totalSpent: bnbValueSchema }),
  launches: z.array(adminLaunchSchema),
  drafts: z.array(adminDraftRowSchema),
  referral: referralInfoSchema,
  /** The referrer's user id when this user's key came with a code. */
  referredBy: z.string().nullable(),
  /** Newest first. */
  claims: z.array(adminClaimSchema),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

export const adminIdParamsSchema = z.object({ id: z.string().uuid("Not found") });

export const adminUserRoute = defineRoute({
  method: "GET",
  path: `${ADMIN_API}/users/:id`,
  access: "admin",
  params: adminIdParamsSchema,
  body: undefined,
  response: z.object({ success: z.literal(true), user: adminUserDetailSchema }),
});

/** Superadmins only; the last active superadmin cannot be demoted. */
export const updateUserRoleRoute = defineRoute({
  method: "PUT",
  path: `${ADMIN_API}/users/:id/role`,
  access: "superadmin",
  params: adminIdParamsSchema,
  body: z.object({
    role: z.enum(roleSchema.options, { error: "role must be user, admin or superadmin" }),
  }),
  response: z.object({
    success: z.literal(true),
    user: z.object({ _id: z.string(), role: roleSchema }),
    /** "Role updated to {role}" (SPEC §8). */
    message: z.string(),
  }),
});

/**
 * Turns a key on or off. An admin may do it to users' keys; an admin's or a superadmin's only a
 * superadmin; never one's own key, nor the last active superadmin's.
 */
export const updateUserActiveRoute = defineRoute({
  method: "PUT",
  path: `${ADMIN_API}/users/:id/active`,
  access: "admin",
  params: adminIdParamsSchema,
  body: z.object({ isActive: z.boolean({ error: "isActive must be true or false" }) }),
  response: z.object({
    success: z.literal(true),
    user: z.object({ _id: z.string(), isActive: z.boolean() }),
    message: z.string(),
  }),
});

export const PAYMENT_KEY_REASON_MESSAGE = "Please give a reason for viewing this private key";

/** `?reason=`: why the key is viewed (a refund to whom), kept in the audit log. */
export const paymentKeyQuerySchema = z.object({
  reason: z
    .string({ error: PAYMENT_KEY_REASON_MESSAGE })
    .trim()
    .min(1, PAYMENT_KEY_REASON_MESSAGE)
    .max(500, "The reason must be at most 500 characters"),
});

/**
 * A draft's payment address and its private key (the draft's current payment, else its latest),
 * for refunds by hand. Every view is in the audit log with its reason, written before the key
 * is answered.
 */
export const draftPaymentKeyRoute = defineRoute({
  method: "GET",
  path: `${ADMIN_API}/drafts/:id/payment-key`,
  access: "admin",
  secret: true,
  params: adminIdParamsSchema,
  query: paymentKeyQuerySchema,
  body: undefined,
  response: z.object({
    success: z.literal(true),
    address: addressSchema,
    privateKey: z.string(),
  }),
});

/** One day of the stats chart: launches made and revenue credited that day (UTC). */
export const dailyStatSchema = z.object({
  /** YYYY-MM-DD, UTC. */
  date: z.string(),
  launches: z.number().int().min(0),
  /** BNB. */
  revenue: bnbValueSchema,
});

/**
 * SPEC §3 Admin stats, plus a daily series for the chart. Revenue is what was credited: paid
 * launch fees plus paid key purchases (BNB). `drafts.paid` counts drafts whose launch fee is paid
 * (launched ones included), `drafts.executed` those launched.
 */
export const adminStatsSchema = z.object({
  users: z.object({
    total: z.number().int(),
    active: z.number().int(),
    admins: z.number().int(),
    superadmins: z.number().int(),
  }),
  launches: z.object({ total: z.number().int() }),
  drafts: z.object({ total: z.number().int(), paid: z.number().int(), executed: z.number().int() }),
  revenue: z.object({
    total: bnbValueSchema,
    currency: z.literal("BNB"),
    launchFees: bnbValueSchema,
    accessKeys: bnbValueSchema,
  }),
  referrals: z.object({
    /** Rewards ever credited to referrers. */
    earned: bnbValueSchema,
    /** Paid out by completed claims. */
    claimed: bnbValueSchema,
    /** Held by pending claims. */
    pending: bnbValueSchema,
  }),
  /** The last ADMIN_STATS_DAYS days, oldest first, every day present. */
  daily: z.array(dailyStatSchema),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;

export const adminStatsRoute = defineRoute({
  method: "GET",
  path: `${ADMIN_API}/stats`,
  access: "admin",
  body: undefined,
  response: z.object({ success: z.literal(true), stats: adminStatsSchema }),
});
