import { ChainError, FourMemeError, InsufficientFundsError } from "@bundler/chain";
import { formatWeiAsBnbUp } from "@bundler/shared";
import { type Address, parseEther } from "viem";
import type { StoredWalletConfig } from "../drafts/drafts.service.ts";
import { describeFourMemeError } from "./create-args.ts";

/**
 * Every wallet the balance check found short, with what it lacks in BNB to 4 decimals (rounded
 * up): "insufficient balance: 2 wallets are short: wallet 0x… needs 0.0101 BNB more; wallet
 * 0x… needs 0.1100 BNB more".
 */
export const shortfallWords = (error: InsufficientFundsError): string => {
  const needs = error.shortfalls.map(
    (s) => `wallet ${s.address} needs ${formatWeiAsBnbUp(s.shortfall)} BNB more`,
  );
  return needs.length === 1
    ? `insufficient balance: ${needs[0]}`
    : `insufficient balance: ${needs.length} wallets are short: ${needs.join("; ")}`;
};

/** A failure in words a user understands: the chain layer's shortMessage, viem's first line. */
export const reasonOf = (error: unknown): string => {
  if (error instanceof InsufficientFundsError) return shortfallWords(error);
  if (error instanceof ChainError) return error.shortMessage;
  if (error instanceof FourMemeError) return describeFourMemeError(error);
  const short = (error as { shortMessage?: unknown }).shortMessage;
  if (typeof short === "string" && short) return short.split("\n")[0] as string;
  return error instanceof Error ? (error.message.split("\n")[0] as string) : String(error);
};

/**
 * The delayed bundle's sniper: the wallet named by delaySnipeAddress when delayEnabled is on.
 * Product decision (SPEC §2 only says "an optional Delayed Bundle section"): the sniper is
 * held back — it is EXCLUDED from the same-block bundle and buys only once, after the delay,
 * with its own buyValue.
 */
export const sniperOf = (config: StoredWalletConfig): Address | null =>
  config.delayEnabled && config.delaySnipeAddress
    ? (config.wallets.find(
        (w) => w.address.toLowerCase() === config.delaySnipeAddress?.toLowerCase(),
      )?.address ?? null)
    : null;

/** The bundle's buyers: every wallet with a buy, but the delayed bundle's sniper. */
export const buyersOf = (config: StoredWalletConfig) => {
  const sniper = sniperOf(config);
  return config.wallets
    .filter((w) => w.address !== sniper)
    .map((w) => ({ address: w.address, funds: parseEther(w.buyValue || "0") }))
    .filter((w) => w.funds > 0n);
};

/** Seconds, uniform in [minDelay, maxDelay] (whole seconds, both ends included). */
export const pickDelaySeconds = (minDelay: number, maxDelay: number): number => {
  const low = Math.max(0, Math.floor(minDelay));
  const high = Math.max(low, Math.floor(maxDelay));
  return low + Math.floor(Math.random() * (high - low + 1));
};
