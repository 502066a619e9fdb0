import { type FourMemeClient, getRaisedToken } from "@bundler/chain";
import type { ChainContext } from "../../lib/chain-context.ts";
import { feeOf } from "./create-args.ts";
import type { LaunchCosts } from "./launch-plan.ts";

/** A bundle's size when no builder says otherwise. */
const DEFAULT_MAX_TXS = 50;
/** four.meme's raise config is read at most this often for estimates. */
const FEE_CACHE_MS = 60_000;

const feeCache = new WeakMap<FourMemeClient, { at: number; fee: Promise<bigint | null> }>();

/** The creation fee four.meme's config lists, or null when it lists none or cannot be read. */
const fourMemeFee = (client: FourMemeClient): Promise<bigint | null> => {
  const cached = feeCache.get(client);
  if (cached && Date.now() - cached.at < FEE_CACHE_MS) return cached.fee;
  const fee = getRaisedToken(client)
    .then((raised) => feeOf(raised.deployCost))
    .catch(() => null);
  feeCache.set(client, { at: Date.now(), fee });
  return fee;
};

/** The gas price a launch signs with: the node's, never below the profile's floor. */
export const launchGasPrice = async (chain: ChainContext): Promise<bigint> => {
  const price = await chain.client.getGasPrice();
  if (price < chain.profile.gasPriceFloor) return chain.profile.gasPriceFloor;
  return price;
};

/** What a launch on this chain costs besides its buys, read now. */
export const readLaunchCosts = async (chain: ChainContext): Promise<LaunchCosts> => {
  const [gasPrice, apiFee] = await Promise.all([
    launchGasPrice(chain),
    chain.fourMeme ? fourMemeFee(chain.fourMeme) : Promise.resolve(null),
  ]);
  return {
    gasPrice,
    creationFee: apiFee ?? (await chain.launchFee()),
    maxTxsPerBundle:
      chain.builders.length > 0
        ? Math.max(...chain.builders.map((b) => b.maxTxs))
        : DEFAULT_MAX_TXS,
    curve: chain.curve,
  };
};
