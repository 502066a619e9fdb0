import { parseEther } from "viem";
import { z } from "zod";
import { isValidAddress } from "../constants.ts";
import { paginationSchema } from "./admin.ts";
import { defineRoute } from "./common.ts";
import { addressSchema, bnbValueSchema } from "./money.ts";

/** SPEC §9 Bumper constants. */
export const BUMPER_MAX_DURATION_MINUTES = 1440;
export const BUMPER_MIN_INTERVAL_MINUTES = 1;
export const BUMPER_MIN_BUY_BNB = 0.001;
export const BUMPER_MAX_BUY_BNB = 1;
export const BUMPER_DEFAULTS = { interval: 5, duration: 30, buySize: 0.01 } as const;
/** Bumpers one key may have under Active (generated or running) at once. */
export const BUMPER_MAX_ACTIVE = 20;
/** Bumpers a page of the list shows, and the most a caller may ask for. */
export const BUMPERS_PAGE_SIZE = 10;
export const BUMPERS_MAX_PAGE_SIZE = 50;

/** Bumps a bumper makes: floor(duration / interval). */
export const bumpsOf = (duration: number, interval: number): number =>
  interval > 0 ? Math.floor(duration / interval) : 0;

export interface BumperForm {
  targetToken: string;
  /** Minutes. */
  interval: number;
  /** Minutes. */
  duration: number;
  /** BNB. */
  buySize: number;
}

/** SPEC §5 Bumper form: the first message that applies, or null when the form is valid. */
export const bumperFormError = (form: BumperForm): string | null => {
  const token = form.targetToken.trim();
  if (!token) return "Token address is required";
  if (!isValidAddress(token)) return "Invalid address format";
  if (!Number.isFinite(form.interval) || form.interval <= 0)
    return "Interval must be greater than 0";
  if (form.interval < BUMPER_MIN_INTERVAL_MINUTES) return "Interval must be at least 1 minute";
  if (!Number.isFinite(form.duration) || form.duration <= 0)
    return "Duration must be greater than 0";
  if (form.duration > BUMPER_MAX_DURATION_MINUTES) return "Duration cannot exceed 1 day";
  if (form.duration <= form.interval) return "Duration must be greater than interval";
  if (!Number.isFinite(form.buySize) || form.buySize <= 0) return "Buy size must be greater than 0";
  if (form.buySize < BUMPER_MIN_BUY_BNB) return "Buy size must be at least 0.001 BNB";
  if (form.buySize > BUMPER_MAX_BUY_BNB) return "Buy size cannot exceed 1 BNB";
  return null;
};

/** SPEC §5 withdraw receiver: the message, or null when it is a valid address. */
export const bumperReceiverError = (receiver: string): string | null => {
  const value = receiver.trim();
  if (!value) return "Receiver address is required";
  if (!isValidAddress(value)) return "Invalid address format";
  return null;
};

/**
 * What a bump really costs besides its buy, as the server runs it now: each bump's bundle pays
 * the builder `tip`; `gas` is the most its transactions may burn at today's gas price (buy,
 * approval, sell, the tip's transfer and the move to the next wallet); the launchpad keeps its
 * trading fee on the buy and on the sell.
 */
export const bumperCostsSchema = z.object({
  /** BNB each bump pays its builder. */
  tip: bnbValueSchema,
  /** BNB of gas one bump may cost at today's gas price. */
  gas: bnbValueSchema,
  /** The trading fee a trade, basis points (100 is 1%). */
  tradingFeeBps: z.number().int().min(0),
  /** The least trading fee a trade, BNB. */
  minTradingFee: bnbValueSchema,
});
export type BumperCosts = z.infer<typeof bumperCostsSchema>;

/** What one bump costs besides the BNB it buys and sells back, wei. */
export interface BumpCost {
  tip: bigint;
  gas: bigint;
  /** The trading fees of its buy and its sell. */
  fees: bigint;
  total: bigint;
}

/** The BNB a bumper needs: the buy size once, plus every bump's cost (wei). */
export interface BumperPlan {
  bumps: number;
  perBump: BumpCost;
  required: bigint;
}

const weiOf = (bnb: string): bigint => parseEther(bnb);

/** One bump's cost for a buy of `buySize` wei: tip, gas and the fee of its buy and its sell. */
export const bumpCost = (buySize: bigint, costs: BumperCosts): BumpCost => {
  const bps = BigInt(costs.tradingFeeBps);
  const rated = (buySize * bps + 9_999n) / 10_000n;
  const minimum = weiOf(costs.minTradingFee);
  // The sell returns less than the buy spent, so its fee is at most the buy's.
  const fees = 2n * (rated > minimum ? rated : minimum);
  const tip = weiOf(costs.tip);
  const gas = weiOf(costs.gas);
  return { tip, gas, fees, total: tip + gas + fees };
};

/**
 * The BNB a bumper must hold to make `bumps` bumps of `buySize` wei: the buy size (each bump
 * buys with it and sells it back) plus each bump's tip, gas and fees. Funded with exactly this,
 * the last bump still has what it needs.
 *
 * @example
 * bumperPlan(parseEther("0.01"), 3, costs).required // 0.01 BNB + 3 × (tip + gas + fees)
 */
export const bumperPlan = (buySize: bigint, bumps: number, costs: BumperCosts): BumperPlan => {
  const perBump = bumpCost(buySize, costs);
  return { bumps, perBump, required: buySize + perBump.total * BigInt(Math.max(0, bumps)) };
};

/** The plan of a bumper's bumps still to make, from its own fields. */
export const remainingPlan = (
  bumper: { buySize: string; totalBumps: number; bumpsCompleted: number },
  costs: BumperCosts,
): BumperPlan =>
  bumperPlan(weiOf(bumper.buySize), bumper.totalBumps - bumper.bumpsCompleted, costs);

export const bumperCostsRoute = defineRoute({
  method: "GET",
  path: "/api/bumper/costs",
  access: "user",
  body: undefined,
  response: z.object({ success: z.literal(true), costs: bumperCostsSchema }),
});

export const BUMPER_STATUSES = ["ready", "active", "stopped", "completed"] as const;
export type BumperStatus = (typeof BUMPER_STATUSES)[number];

/** The list's tabs: Active (generated or running), Completed (stopped or done). */
export const BUMPER_TABS = ["active", "completed"] as const;
export type BumperTab = (typeof BUMPER_TABS)[number];
export const BUMPER_TAB_STATUSES: Record<BumperTab, readonly BumperStatus[]> = {
  active: ["ready", "active"],
  completed: ["stopped", "completed"],
};
export const bumperTabOf = (status: BumperStatus): BumperTab =>
  BUMPER_TAB_STATUSES.active.includes(status) ? "active" : "completed";

export const bumperSchema = z.object({
  id: z.string(),
  targetToken: addressSchema,
  totalBumps: z.number().int(),
  bumpsCompleted: z.number().int(),
  /** Minutes. */
  interval: z.number(),
  /** Minutes. */
  duration: z.number(),
  /** BNB per buy. */
  buySize: bnbValueSchema,
  /** The current wallet's BNB. */
  balance: bnbValueSchema,
  active: z.boolean(),
  /** ready (generated, not started), active, stopped (by the user, a withdrawal or itself), completed. */
  status: z.enum(BUMPER_STATUSES),
  /** Why it stopped by itself (the balance can no longer pay a bump, the token is gone...). */
  stopReason: z.string().nullable(),
  nextBumpAt: z.string().nullable(),
  lastBumpAt: z.string().nullable(),
  /** The current wallet: fund it to start. */
  address: addressSchema,
  currentWalletIndex: z.number().int(),
  /** BNB paid in gas by every bump so far. */
  gasSpent: bnbValueSchema,
  /** BNB bought and sold by every bump so far (buys + sells). */
  volume: bnbValueSchema,
  createdAt: z.string(),
});
export type Bumper = z.infer<typeof bumperSchema>;

/** One bump that landed: the chart's point. */
export const bumpSchema = z.object({
  index: z.number().int(),
  at: z.string(),
  block: z.number().int(),
  /** BNB spent on the buy. */
  bought: bnbValueSchema,
  /** BNB the sell returned. */
  sold: bnbValueSchema,
  /** BNB paid in gas by the bump's transactions (buy, approval, sell, move). */
  gas: bnbValueSchema,
  /** BNB per whole token the buy paid. */
  price: z.string(),
  buyHash: z.string(),
  sellHash: z.string(),
});
export type Bump = z.infer<typeof bumpSchema>;

export const bumperWalletSchema = z.object({
  index: z.number().int(),
  address: addressSchema,
  balance: bnbValueSchema,
  /** Tokens held, whole units as a decimal string. */
  tokens: z.string(),
  isActive: z.boolean(),
});
export type BumperWallet = z.infer<typeof bumperWalletSchema>;

const minutes = z.number({ error: "must be a number of minutes" });

export const generateBumperRoute = defineRoute({
  method: "POST",
  path: "/api/bumper/generate",
  access: "user",
  // Types only: the §5 messages come from bumperFormError, word for word.
  body: z.object({
    targetToken: z.string().max(100),
    duration: minutes,
    interval: minutes,
    buySize: z.union([z.number(), z.string().max(40)]),
  }),
  response: z.object({
    success: z.literal(true),
    bumper: bumperSchema,
    existingBumper: z.boolean(),
    message: z.string(),
  }),
});
export type GenerateBumperBody = z.input<typeof generateBumperRoute.body>;

const wholeNumber = (message: string, min: number, max: number) =>
  z
    .string({ error: message })
    .regex(/^\d{1,9}$/, message)
    .transform(Number)
    .pipe(z.number().min(min, message).max(max, message));

/** `?tab=active|completed&page=N&limit=M`: one tab's page, newest first (every bumper without a tab). */
export const listBumpersQuerySchema = z.object({
  tab: z.enum(BUMPER_TABS, { error: "The tab must be active or completed" }).optional(),
  page: wholeNumber("The page must be a whole number from 1 up", 1, 1_000_000).default(1),
  limit: wholeNumber(
    `The limit must be a whole number from 1 to ${BUMPERS_MAX_PAGE_SIZE}`,
    1,
    BUMPERS_MAX_PAGE_SIZE,
  ).default(BUMPERS_PAGE_SIZE),
});
export type ListBumpersQuery = z.input<typeof listBumpersQuerySchema>;

export const listBumpersRoute = defineRoute({
  method: "GET",
  path: "/api/bumper/user",
  access: "user",
  query: listBumpersQuerySchema,
  body: undefined,
  response: z.object({
    success: z.literal(true),
    bumpers: z.array(bumperSchema),
    pagination: paginationSchema,
    /** How many bumpers each tab holds. */
    counts: z.object({ active: z.number().int(), completed: z.number().int() }),
  }),
});

const bumperIdParams = z.object({ id: z.string().uuid("Bumper not found") });

export const getBumperRoute = defineRoute({
  method: "GET",
  path: "/api/bumper/:id",
  access: "user",
  params: bumperIdParams,
  owned: [{ in: "params", field: "id", object: "bumper" }],
  body: undefined,
  response: z.object({
    success: z.literal(true),
    bumper: bumperSchema,
    bumps: z.array(bumpSchema),
  }),
});

const bumperAnswer = z.object({
  success: z.literal(true),
  bumper: bumperSchema,
  message: z.string(),
});

export const startBumperRoute = defineRoute({
  method: "POST",
  path: "/api/bumper/:id/start",
  access: "user",
  movesMoney: true,
  params: bumperIdParams,
  owned: [{ in: "params", field: "id", object: "bumper" }],
  body: undefined,
  response: bumperAnswer,
});

export const stopBumperRoute = defineRoute({
  method: "POST",
  path: "/api/bumper/:id/stop",
  access: "user",
  params: bumperIdParams,
  owned: [{ in: "params", field: "id", object: "bumper" }],
  body: undefined,
  response: bumperAnswer,
});

/** What a withdrawal says of a wallet whose tokens did not sell (the reason is the server's). */
export const bumperUnsoldText = (wallet: string, reason: string) =>
  `Wallet ${wallet} keeps its BNB: its tokens did not sell (${reason}). Withdraw again to try once more`;

/** A withdrawal's words: the spec's success sentence, then each wallet that did not sell. */
export const bumperWithdrawalText = (
  withdrew: string,
  unsold: ReadonlyArray<{ wallet: string; reason: string }>,
) => [withdrew, ...unsold.map((u) => bumperUnsoldText(u.wallet, u.reason))].join(". ");

export const withdrawBumperRoute = defineRoute({
  method: "POST",
  path: "/api/bumper/withdraw",
  access: "user",
  movesMoney: true,
  owned: [{ in: "body", field: "bumperId", object: "bumper" }],
  body: z.object({ bumperId: z.string().max(100), receiverAddress: z.string().max(100) }),
  response: z.object({
    success: z.literal(true),
    /** BNB the receiver got (after gas). */
    amount: bnbValueSchema,
    message: z.string(),
    /** Wallets whose tokens did not sell, with why: they keep their BNB to sell them later. */
    unsold: z.array(z.object({ wallet: addressSchema, reason: z.string() })),
  }),
});

export const bumperWalletsRoute = defineRoute({
  method: "GET",
  path: "/api/bumper/:id/wallets",
  access: "user",
  params: bumperIdParams,
  owned: [{ in: "params", field: "id", object: "bumper" }],
  body: undefined,
  response: z.object({ success: z.literal(true), wallets: z.array(bumperWalletSchema) }),
});
