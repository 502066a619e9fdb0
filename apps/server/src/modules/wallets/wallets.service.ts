import { addressOfKey } from "@bundler/chain";
import { type CurveOutlook, QUOTAS, type WalletAmount } from "@bundler/shared";
import { type Address, formatEther, getAddress, type Hex, parseEther } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { type ChainContext, DEFAULT_CURVE, requireChain } from "../../lib/chain-context.ts";
import { sealForBrowser } from "../../lib/envelope.ts";
import { BadRequestError, TooManyRequestsError } from "../../lib/errors.ts";
import { type KeyVault, normalizePrivateKey } from "../../lib/key-vault.ts";
import { lockUser } from "../../lib/quota.ts";
import { recentBnbBalances } from "../../lib/shared-reads.ts";
import { type BuyRange, checkRange, generateBuys } from "./buy-amounts.ts";

export interface BuyContext {
  /** The creator's buy (BNB), which runs before every wallet's. */
  creatorBuy?: string | undefined;
  /** The delayed sniper, quoted after the bundle. */
  delaySnipeAddress?: string | undefined;
}

export class WalletsService {
  constructor(
    private readonly vault: KeyVault,
    private readonly chain: ChainContext | undefined,
  ) {}

  private get curve() {
    return this.chain?.curve ?? DEFAULT_CURVE;
  }

  /** A random buy per wallet within the range, quoted in the order the launch runs them. */
  amounts(
    addresses: string[],
    range: BuyRange,
    context: BuyContext = {},
  ): { amounts: WalletAmount[]; curve: CurveOutlook } {
    checkRange(range);
    const wallets = addresses.map((a) => getAddress(a));
    const sniper = context.delaySnipeAddress ? getAddress(context.delaySnipeAddress) : null;
    if (sniper && !wallets.includes(sniper))
      throw new BadRequestError("Address must be one of the imported wallet addresses");
    const { buys, outlook } = generateBuys({
      addresses: wallets,
      range,
      curve: this.curve,
      creatorBuy: parseEther(context.creatorBuy ?? "0"),
      sniper,
    });
    return {
      amounts: buys.map((b) => ({
        address: b.address,
        buyValue: formatEther(b.buyValue),
        tokenAmount: b.tokenAmount.toString(),
      })),
      curve: outlook,
    };
  }

  /**
   * New bundle wallets: everything is computed and checked first, then the keys are committed
   * to the vault, then the browser gets them sealed.
   */
  async generate(ownerId: string, count: number, range: BuyRange, publicKey: string) {
    try {
      sealForBrowser(publicKey, "[]");
    } catch {
      throw new BadRequestError("Invalid public key: send the RSA public key as base64 SPKI");
    }
    const keys = Array.from({ length: count }, () => {
      const privateKey = generatePrivateKey();
      return { address: addressOfKey(privateKey), privateKey };
    });
    const { amounts } = this.amounts(
      keys.map((key) => key.address),
      range,
    );
    const encryptedKeys = sealForBrowser(publicKey, JSON.stringify(keys));
    await this.vault.transaction(async (tx) => {
      await lockUser(tx, ownerId);
      const limit = QUOTAS.generatedWalletsPerDay;
      const used = await this.vault.countGenerated(ownerId, tx);
      if (used + count > limit)
        throw new TooManyRequestsError(
          `Generating ${count} wallets would pass the limit of ${limit} per key in 24 hours (${used} generated): ${used < limit ? `generate at most ${limit - used}, or try again later` : "try again later"}`,
        );
      await this.vault.store(
        keys.map(({ privateKey }) => ({ privateKey, purpose: "bundle" as const })),
        { ownerId },
        tx,
      );
    });
    return {
      encryptedKeys,
      wallets: amounts.map(({ address, buyValue, tokenAmount }) => ({
        address,
        bnbAmount: { buyValue, tokenAmount },
      })),
    };
  }

  /**
   * The funding panel's poll (every 10 s): BNB balances, read per block together with every
   * other caller's, answered from the last block's values while the new block's read is on its
   * way (`asOfBlock` says which block). Each address is answered as it was asked (checksumming
   * 50 addresses a poll cost more than reading their balances).
   */
  async balances(addresses: string[]) {
    const chain = requireChain(this.chain);
    const { values, block } = await recentBnbBalances(chain, addresses as Address[]);
    return {
      balances: addresses.map((address, i) => ({
        address,
        balance: formatEther(values[i] ?? 0n),
      })),
      asOfBlock: block === null ? null : String(block),
    };
  }

  importKeys(privateKeys: string[]): Array<{ address: Address; privateKey: Hex }> {
    const seen = new Set<string>();
    const wallets: Array<{ address: Address; privateKey: Hex }> = [];
    for (const raw of privateKeys) {
      try {
        const privateKey = normalizePrivateKey(raw);
        const address = addressOfKey(privateKey);
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
