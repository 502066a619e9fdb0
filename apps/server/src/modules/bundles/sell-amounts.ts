import { tokenWords } from "@bundler/shared";
import { type Address, formatEther, parseEther } from "viem";
import { BadRequestError } from "../../lib/errors.ts";

/**
 * Tokens for display (a sell's amounts, a wallet's balance, the reasons): the whole part in
 * groups of three and at most 4 decimals, rounded down so a balance never reads larger than it
 * is (SPEC §9's 4 decimals; the launchpad's 18 decimals said nothing a user could read).
 */
export const formatTokens = (units: bigint): string => tokenWords(units);

/** An amount the caller typed, echoed in full (every decimal they gave), grouped. */
const exactTokens = (units: bigint): string => {
  const [whole = "0", fraction] = formatEther(units).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return fraction ? `${grouped}.${fraction}` : grouped;
};

/** What a caller asked to sell: a token amount per wallet, or a percent of each balance. */
export interface SellSpec {
  amount: string;
  isPercentage: boolean;
}

export type SellAmount = { address: Address; amount: bigint } | { address: Address; error: string };

const HUNDRED_PERCENT = parseEther("100");

/**
 * A wallet's tokens; `sellable`, when known, what a sale of all of them can take
 * (`getSellableTokens`: 0n when the wallet holds only dust).
 */
export interface SellBalance {
  address: Address;
  token: bigint;
  sellable?: bigint;
}

/**
 * Each wallet's tokens to sell. Refuses the whole request (400, nothing is sent) for a percent
 * outside (0, 100], a zero amount, or a token amount above a wallet's balance (naming the
 * wallet); a wallet holding none of the token, only dust of it (anyone can send a wallet 1 wei),
 * or whose share rounds to nothing, is that wallet's own failure and the others still sell.
 */
export const sellAmounts = (spec: SellSpec, balances: ReadonlyArray<SellBalance>): SellAmount[] => {
  const asked = parseEther(spec.amount);
  if (spec.isPercentage) {
    if (asked <= 0n || asked > HUNDRED_PERCENT)
      throw new BadRequestError(`Percent must be more than 0 and at most 100 (got ${spec.amount})`);
  } else if (asked <= 0n) throw new BadRequestError("Amount must be more than 0 tokens");

  const dust = (b: SellBalance) => b.token > 0n && b.sellable === 0n;
  const over = balances.filter(
    (b) => !spec.isPercentage && b.token > 0n && !dust(b) && b.token < asked,
  );
  if (over.length > 0) {
    const first = over[0] as { address: Address; token: bigint };
    const others = over.length > 1 ? ` (and ${over.length - 1} more wallets)` : "";
    throw new BadRequestError(
      `Wallet ${first.address} holds only ${formatTokens(first.token)} tokens, less than the ${exactTokens(asked)} to sell${others}`,
    );
  }
  return balances.map((balance) => {
    const { address, token } = balance;
    if (token === 0n) return { address, error: `wallet ${address} holds none of this token` };
    if (dust(balance))
      return {
        address,
        error: `wallet ${address} holds only dust of this token (${token} wei), less than a sale can take`,
      };
    const amount = spec.isPercentage ? (token * asked) / HUNDRED_PERCENT : asked;
    if (amount === 0n)
      return {
        address,
        error: `${spec.amount}% of wallet ${address}'s balance is less than one unit`,
      };
    return { address, amount };
  });
};
