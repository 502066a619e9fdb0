import { type Address, formatEther } from "viem";

/** Every chain failure a user may see: a literal name and a short human message. */
export class ChainError extends Error {
  override name = "ChainError";
  constructor(readonly shortMessage: string) {
    super(shortMessage);
  }
}

/** four.meme's revert codes (and ours), in words a launcher understands. */
export const REVERT_MESSAGES: Record<string, string> = {
  GW: "the token amount must be a whole number of gwei units",
  ZA: "the amount is zero",
  TO: "trading is closed on the launchpad for this token (it graduated to the DEX, or has not opened yet)",
  Slippage: "the price moved past the slippage limit",
  "More BNB": "not enough BNB was sent for this buy",
  FR: "the fee rate is not allowed",
  SO: "the sale is too small: it would fetch no more than the launchpad's fee",
  A: "this is an X Mode token, which four.meme sells only through its own signed buy",
  Signer: "the launch arguments are not signed by the launch signer",
  Request: "these launch arguments were already used",
  Creator: "the launch arguments belong to another creator",
  Value: "the BNB sent does not match the amount",
  Token: "this token does not belong to the launchpad",
  // The DEX routers' own words, for tokens that graduated (Uniswap V2 locally, PancakeSwap on BSC).
  ...Object.fromEntries(
    ["UniswapV2", "Pancake"].flatMap((dex) => [
      [`${dex}Router: INSUFFICIENT_OUTPUT_AMOUNT`, "the price moved past the slippage limit"],
      [`${dex}Router: EXPIRED`, "the swap's deadline passed before it was mined"],
      [`${dex}Library: INSUFFICIENT_INPUT_AMOUNT`, "the amount is zero"],
      [`${dex}Library: INSUFFICIENT_LIQUIDITY`, "the DEX pool has no liquidity for this token"],
    ]),
  ),
};

export const describeRevert = (reason: string): string => REVERT_MESSAGES[reason] ?? reason;

export class RevertError extends ChainError {
  override name = "RevertError" as const;
  constructor(
    readonly reason: string,
    readonly context?: string,
  ) {
    super(`${context ? `${context}: ` : ""}reverted: ${describeRevert(reason)}`);
  }
}

export class InsufficientFundsError extends ChainError {
  override name = "InsufficientFundsError" as const;
  /** Every address a check found short, with its shortfall (`address` first). */
  readonly shortfalls: ReadonlyArray<{ address: Address; shortfall: bigint }>;
  constructor(
    readonly address: Address,
    readonly shortfall: bigint,
    others: ReadonlyArray<{ address: Address; shortfall: bigint }> = [],
  ) {
    const all = [{ address, shortfall }, ...others];
    const needs = all.map((s) => `wallet ${s.address} needs ${formatEther(s.shortfall)} BNB more`);
    super(
      all.length === 1
        ? `insufficient balance: ${needs[0]}`
        : `insufficient balance: ${all.length} wallets are short: ${needs.join("; ")}`,
    );
    this.shortfalls = all;
  }
}

/** A revert code with its meaning: "Slippage: the price moved past the slippage limit". */
export const explainRevert = (reason: string): string => {
  const meaning = describeRevert(reason);
  return meaning === reason ? reason : `${reason}: ${meaning}`;
};

/** One builder's refusal; `transaction` names the bundle's transaction it blamed, if any. */
export interface BundleRefusal {
  builder: string;
  /** In words, with the blamed transaction's role: "the buy by wallet 0x… would revert: ...". */
  reason: string;
  transaction?: { index: number; hash: `0x${string}`; role: string; revert?: string };
}

export class BundleRejectedError extends ChainError {
  override name = "BundleRejectedError" as const;
  constructor(readonly reasons: BundleRefusal[]) {
    super(reasons.map((r) => `builder ${r.builder} refused: ${r.reason}`).join("; "));
  }
}

/** The node's own run of the bundle (eth_simulateV1) says one transaction would revert. */
export class SimulationRevertError extends ChainError {
  override name = "SimulationRevertError" as const;
  constructor(
    readonly role: string,
    readonly reason: string,
  ) {
    super(`simulation: ${role} would revert: ${explainRevert(reason)}`);
  }
}

export class BundleTimeoutError extends ChainError {
  override name = "BundleTimeoutError" as const;
  constructor(
    readonly lastBlockChecked: bigint,
    readonly maxBlockNumber: bigint,
  ) {
    super(
      `bundle not included by block ${maxBlockNumber} (last block checked: ${lastBlockChecked})`,
    );
  }
}

/** The revert string inside a viem error, if any. */
export const revertReasonOf = (error: unknown): string | null => {
  let current: unknown = error;
  while (current && typeof current === "object") {
    const candidate = current as { reason?: unknown; data?: { args?: unknown[] }; cause?: unknown };
    if (typeof candidate.reason === "string" && candidate.reason) return candidate.reason;
    const arg = candidate.data?.args?.[0];
    if (typeof arg === "string") return arg;
    current = candidate.cause;
  }
  return null;
};

export class InsufficientTokensError extends ChainError {
  override name = "InsufficientTokensError" as const;
  constructor(
    readonly address: Address,
    readonly token: Address,
    readonly shortfall: bigint,
  ) {
    super(
      `insufficient tokens: wallet ${address} needs ${formatEther(shortfall)} more of token ${token}`,
    );
  }
}

/**
 * A token our trading code must not touch: unknown, another launchpad's, not quoted in BNB, or
 * of a kind this app does not trade (`kind`: TokenManager V1, X Mode), `reason` in words.
 */
export class UnsupportedTokenError extends ChainError {
  override name = "UnsupportedTokenError" as const;
  constructor(
    readonly token: Address,
    readonly reason: string,
    readonly code: "unknown" | "kind" | "other" = "other",
  ) {
    super(`token ${token} cannot be traded here: ${reason}`);
  }
}

export class TransactionTimeoutError extends ChainError {
  override name = "TransactionTimeoutError" as const;
  constructor(
    readonly hash: `0x${string}`,
    readonly timeoutMs: number,
  ) {
    super(`transaction ${hash} was not mined within ${Math.round(timeoutMs / 1000)} s`);
  }
}
