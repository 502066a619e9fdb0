import { getBnbPrice } from "@bundler/chain";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import { ServiceUnavailableError } from "../../lib/errors.ts";

export interface BnbPrice {
  /** USD per BNB. */
  price: number;
  source: "chainlink" | "fixed";
}

/**
 * The BNB price: Chainlink's feed where the profile has one (a stale or negative round is
 * refused with a 503, never used), else `fixedUsd` (BNB_USD_PRICE) or the profile's number.
 * The price route and key purchases read it here.
 */
export class PriceService {
  constructor(
    private readonly chain: ChainContext | undefined,
    private readonly fixedUsd: number | undefined,
  ) {}

  async bnbUsd(): Promise<BnbPrice> {
    const { profile, client } = requireChain(this.chain);
    if (profile.bnbPrice.kind === "fixed")
      return { price: this.fixedUsd ?? profile.bnbPrice.usd, source: "fixed" };
    try {
      return { price: await getBnbPrice(client, { profile }), source: "chainlink" };
    } catch (error) {
      const { shortMessage, message } = error as Error & { shortMessage?: string };
      throw new ServiceUnavailableError(`BNB price unavailable: ${shortMessage ?? message}`);
    }
  }
}
