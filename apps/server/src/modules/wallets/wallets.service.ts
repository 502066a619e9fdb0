import { randomInt } from "node:crypto";
import { getBalances } from "@bundler/chain";
import {
  CURVE_SUPPLY,
  type CurveState,
  GWEI_UNIT,
  newCurve,
  quoteBuyAmount,
  quoteBuyWithFunds,
  TOTAL_SUPPLY,
} from "@bundler/contracts";
import type { WalletAmount } from "@bundler/shared";
import { type Address, formatEther, getAddress, type Hex, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { type ChainContext, DEFAULT_CURVE, requireChain } from "../../lib/chain-context.ts";
import { sealForBrowser } from "../../lib/envelope.ts";
import { BadRequestError } from "../../lib/errors.ts";
import { type KeyVault, normalizePrivateKey } from "../../lib/key-vault.ts";

export interface BuyRange {
  minBuyAmount: string;
  maxBuyAmount: string;
  isPercentage: boolean;
}

/** Percent inputs are read to this many decimals (1e-6 %). */
const PERCENT_SCALE = 1_000_000n;

const parsePercent = (value: string): bigint => {
  const [whole = "0", fraction = ""] = value.split(".");
  return BigInt(whole) * PERCENT_SCALE + BigInt(fraction.slice(0, 6).padEnd(6, "0"));
};

/** A uniform bigint in [lo, hi]. */
const randomBigint = (lo: bigint, hi: bigint): bigint => {
  if (hi <= lo) return lo;
  const span = hi - lo + 1n;
  const bytes = Math.ceil(span.toString(16).length / 2) + 8;
  const buffer = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) buffer[i] = randomInt(256);
  return lo + (BigInt(`0x${buffer.toString("hex")}`) % span);
};

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/**
 * One wallet's buy within [min, max]:
 * - BNB: a random gwei-aligned amount in [min, max] (min itself when the range holds no whole gwei);
 *   tokenAmount is what it buys on a fresh curve.
 * - Percent of total supply: a random token amount in [min %, max %] (gwei-aligned, capped at the
 *   curve), priced on a FRESH curve with quoteBuyAmount: buyValue = cost + fee, rounded up to gwei.
 */
export const randomBuy = (
  range: BuyRange,
  curveSettings: Omit<CurveState, "offers"> = DEFAULT_CURVE,
): { buyValue: bigint; tokenAmount: bigint } => {
  const curve = newCurve(curveSettings);
  if (range.isPercentage) {
    const lo = parsePercent(range.minBuyAmount);
    const hi = parsePercent(range.maxBuyAmount);
    const loTokens = ceilDiv(TOTAL_SUPPLY * lo, 100n * PERCENT_SCALE * GWEI_UNIT) * GWEI_UNIT;
    const hiTokens = ((TOTAL_SUPPLY * hi) / (100n * PERCENT_SCALE) / GWEI_UNIT) * GWEI_UNIT;
    let tokens =
      hiTokens >= loTokens
        ? randomBigint(loTokens / GWEI_UNIT, hiTokens / GWEI_UNIT) * GWEI_UNIT
        : loTokens;
    if (tokens > CURVE_SUPPLY) tokens = CURVE_SUPPLY;
    if (tokens === 0n) return { buyValue: 0n, tokenAmount: 0n };
    const quote = quoteBuyAmount(curve, tokens);
    return {
      buyValue: ceilDiv(quote.cost + quote.fee, GWEI_UNIT) * GWEI_UNIT,
      tokenAmount: quote.amount,
    };
  }
  const lo = parseEther(range.minBuyAmount);
  const hi = parseEther(range.maxBuyAmount);
  const loG = ceilDiv(lo, GWEI_UNIT);
  const hiG = hi / GWEI_UNIT;
  const buyValue = hiG >= loG ? randomBigint(loG, hiG) * GWEI_UNIT : lo;
  let tokenAmount = 0n;
  try {
    if (buyValue > 0n) tokenAmount = quoteBuyWithFunds(curve, buyValue).amount;
  } catch {
    tokenAmount = 0n; // below the minimum fee: buys nothing
  }
  return { buyValue, tokenAmount };
};

export const checkRange = (range: BuyRange): void => {
  const lo = range.isPercentage ? parsePercent(range.minBuyAmount) : parseEther(range.minBuyAmount);
  const hi = range.isPercentage ? parsePercent(range.maxBuyAmount) : parseEther(range.maxBuyAmount);
  if (lo > hi)
    throw new BadRequestError("Minimum buy amount cannot be greater than maximum buy amount");
  if (range.isPercentage && hi > 100n * PERCENT_SCALE)
    throw new BadRequestError("A buy cannot be more than 100% of the supply");
};

export class WalletsService {
  constructor(
    private readonly vault: KeyVault,
    private readonly chain: ChainContext | undefined,
  ) {}

  private get curve() {
    return this.chain?.curve ?? DEFAULT_CURVE;
  }

  amounts(addresses: string[], range: BuyRange): WalletAmount[] {
    checkRange(range);
    return addresses.map((address) => {
      const { buyValue, tokenAmount } = randomBuy(range, this.curve);
      return {
        address: getAddress(address),
        buyValue: formatEther(buyValue),
        tokenAmount: tokenAmount.toString(),
      };
    });
  }

  /** New bundle wallets: keys committed to the vault first, then sealed for the browser. */
  async generate(ownerId: string, count: number, range: BuyRange, publicKey: string) {
    checkRange(range);
    // Fail on a bad public key before creating anything.
    try {
      sealForBrowser(publicKey, "[]");
    } catch {
      throw new BadRequestError("Invalid public key: send the RSA public key as base64 SPKI");
    }
    const stored = await this.vault.store(
      Array.from({ length: count }, () => ({
        privateKey: generatePrivateKey(),
        purpose: "bundle" as const,
      })),
      { ownerId },
    );
    const encryptedKeys = sealForBrowser(
      publicKey,
      JSON.stringify(stored.map(({ address, privateKey }) => ({ address, privateKey }))),
    );
    const amounts = this.amounts(
      stored.map((entry) => entry.address),
      range,
    );
    return {
      encryptedKeys,
      wallets: amounts.map(({ address, buyValue, tokenAmount }) => ({
        address,
        bnbAmount: { buyValue, tokenAmount },
      })),
    };
  }

  async balances(addresses: string[]) {
    const chain = requireChain(this.chain);
    const result = await getBalances(chain.client, {
      addresses: addresses.map((a) => getAddress(a)),
    });
    return result.map((entry) => ({ address: entry.address, balance: formatEther(entry.bnb) }));
  }

  importKeys(privateKeys: string[]): Array<{ address: Address; privateKey: Hex }> {
    const seen = new Set<string>();
    const wallets: Array<{ address: Address; privateKey: Hex }> = [];
    for (const raw of privateKeys) {
      try {
        const privateKey = normalizePrivateKey(raw);
        const { address } = privateKeyToAccount(privateKey);
        if (seen.has(address)) continue;
        seen.add(address);
        wallets.push({ address, privateKey });
      } catch {
        // Invalid keys are dropped (SPEC §5).
      }
    }
    if (wallets.length === 0) throw new BadRequestError("No valid private keys entered");
    return wallets;
  }
}
