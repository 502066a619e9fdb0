import type { Hex } from "viem";

/**
 * What a builder's status service says of a bundle it was sent: `landed` in `block`, `failed`
 * with its reason, `pending` (known, not decided yet: 48 Club confirms about 5 blocks late,
 * BlockRazor some minutes after sending), or `unknown` (never seen, or forgotten: 48 Club keeps
 * a bundle 7 days). The chain stays the truth of what landed: this says why one did not.
 */
export type BundleStatus =
  | { state: "landed"; block: bigint | null }
  | { state: "failed"; reason: string }
  | { state: "pending" }
  | { state: "unknown" };

/** The builders whose status services we read (reference: "Finding out what became of a bundle"). */
export const BUNDLE_STATUS_SERVICES = {
  /** GET <url>?hash=<bundle hash> → submitted, confirmed, block, priority; unknown hash: 404. */
  "48club": "https://explore.48.club/v2/bundle",
  /** GET <url>?hash=<bundle hash> → onchain / failed (with err) / not found. */
  blockrazor: "https://bsc-bundle-stats.blockrazor.io/bundlestate",
} as const;

export type BundleStatusBuilder = keyof typeof BUNDLE_STATUS_SERVICES;

export const hasBundleStatus = (builder: string): builder is BundleStatusBuilder =>
  Object.hasOwn(BUNDLE_STATUS_SERVICES, builder);

export interface GetBundleStatusParameters {
  builder: BundleStatusBuilder;
  /** The hash the builder answered `eth_sendBundle` with. */
  bundleHash: Hex;
  /** The service's address (tests point it at a fake); the builder's published one otherwise. */
  url?: string;
  /** Sent as the `Authorization` header (BlockRazor counts queries by key). */
  authorization?: string;
  timeoutMs?: number;
}

/**
 * Asks a builder's status service what became of a bundle. Throws when the service cannot be
 * read (unreachable, an HTTP error other than 404, an answer it does not recognise): the caller
 * asks again later, within the service's quota.
 *
 * @example
 * const status = await getBundleStatus({ builder: "48club", bundleHash });
 */
export const getBundleStatus = async ({
  builder,
  bundleHash,
  url = BUNDLE_STATUS_SERVICES[builder],
  authorization,
  timeoutMs = 10_000,
}: GetBundleStatusParameters): Promise<BundleStatus> => {
  const response = await fetch(`${url}?hash=${bundleHash}`, {
    headers: authorization ? { authorization } : {},
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (response.status === 404) return { state: "unknown" };
  if (!response.ok) throw new Error(`${builder}'s bundle status answered HTTP ${response.status}`);
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  const data = (
    body && typeof body.data === "object" && body.data !== null ? body.data : body
  ) as Record<string, unknown> | null;
  if (!data) throw new Error(`${builder}'s bundle status answered something other than JSON`);
  const status = builder === "48club" ? fortyEightClub(data) : blockRazor(data);
  if (!status)
    throw new Error(
      `${builder}'s bundle status answered in a shape this app does not know: ${JSON.stringify(data).slice(0, 200)}`,
    );
  return status;
};

const blockOf = (value: unknown): bigint | null => {
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return BigInt(value);
  if (typeof value === "string" && /^(0x[0-9a-fA-F]+|\d+)$/.test(value)) return BigInt(value);
  return null;
};

/** 48 Club: `submitted` (seen), `confirmed` (in a block, about 5 blocks late), `block`. */
const fortyEightClub = (data: Record<string, unknown>): BundleStatus | null => {
  if (!("submitted" in data) && !("confirmed" in data)) return null;
  if (data.confirmed === true) return { state: "landed", block: blockOf(data.block) };
  if (data.submitted === true || data.submitted === undefined) return { state: "pending" };
  return { state: "unknown" };
};

/** BlockRazor: a state word, "onchain", "failed" (with `err`), or "not found". */
const blockRazor = (data: Record<string, unknown>): BundleStatus | null => {
  const word = [data.state, data.status, data.bundleState].find((v) => typeof v === "string") as
    | string
    | undefined;
  if (!word) return null;
  const state = word.toLowerCase().replace(/[\s_-]/g, "");
  if (state === "onchain")
    return { state: "landed", block: blockOf(data.blockNumber ?? data.block) };
  if (state === "failed")
    return {
      state: "failed",
      reason: typeof data.err === "string" && data.err ? data.err : "failed",
    };
  if (state === "notfound") return { state: "unknown" };
  return { state: "pending" };
};
