import { z } from "zod";
import { isValidAddress } from "../constants.ts";
import { defineRoute } from "./common.ts";
import { addressSchema, bnbValueSchema } from "./money.ts";

/** SPEC §9 Bumper constants. */
export const BUMPER_MAX_DURATION_MINUTES = 1440;
export const BUMPER_MIN_INTERVAL_MINUTES = 1;
export const BUMPER_MIN_BUY_BNB = 0.001;
export const BUMPER_MAX_BUY_BNB = 1;
export const BUMPER_DEFAULTS = { interval: 5, duration: 30, buySize: 0.01 } as const;
/** What the screen budgets for the gas of one bump (buy, approval, sell, move), BNB. */
export const BUMPER_GAS_ESTIMATE_BNB = 0.001;

/** Bumps a bumper makes: floor(duration / interval). */
export const bumpsOf = (duration: number, interval: number): number =>
  interval > 0 ? Math.floor(duration / interval) : 0;

/** BNB a bumper should hold before it starts: buy size + 0.001 × bumps (SPEC §9). */
export const requiredBumperBnb = (buySize: number, bumps: number): number =>
  buySize + BUMPER_GAS_ESTIMATE_BNB * bumps;

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

export const BUMPER_STATUSES = ["ready", "active", "stopped", "completed"] as const;
export type BumperStatus = (typeof BUMPER_STATUSES)[number];

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

export const listBumpersRoute = defineRoute({
  method: "GET",
  path: "/api/bumper/user",
  access: "user",
  body: undefined,
  response: z.object({ success: z.literal(true), bumpers: z.array(bumperSchema) }),
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

export const withdrawBumperRoute = defineRoute({
  method: "POST",
  path: "/api/bumper/withdraw",
  access: "user",
  owned: [{ in: "body", field: "bumperId", object: "bumper" }],
  body: z.object({ bumperId: z.string().max(100), receiverAddress: z.string().max(100) }),
  response: z.object({
    success: z.literal(true),
    /** BNB the receiver got (after gas). */
    amount: bnbValueSchema,
    message: z.string(),
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
