import { getPublicTokenInfo, tokenPageUrl } from "@bundler/chain";
import { draftLogoPath } from "@bundler/shared";
import { LRUCache } from "lru-cache";
import type { Address } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";

export interface TokenLinks {
  image: string | null;
  tradeUrl: string | null;
  launchpadUrl: string | null;
}

type PublicTokenInfo = NonNullable<Awaited<ReturnType<typeof getPublicTokenInfo>>>;

/**
 * What four.meme said of a token, per API client, for 5 minutes: the bundle list and the
 * balances poll (every 10 s per open page) would otherwise ask it again on every request.
 * Keyed with whether the token graduated, so the DEX link is asked for again once it did;
 * failures are not kept.
 */
const answers = new WeakMap<object, LRUCache<string, PublicTokenInfo>>();
const PUBLIC_INFO_TTL_MS = 5 * 60_000;

const answersOf = (api: object) => {
  let cache = answers.get(api);
  if (!cache) {
    cache = new LRUCache({ max: 5_000, ttl: PUBLIC_INFO_TTL_MS });
    answers.set(api, cache);
  }
  return cache;
};

/**
 * A bundle's image and trade link from the launchpad's public token info: four.meme's API where
 * launches go through it (BSC), whose failures are logged and ignored; otherwise the server's
 * own (the draft's logo, and once the token graduated, the profile's DEX page for it). What
 * four.meme does not say falls back to ours.
 */
export const tokenLinks = async (
  chain: ChainContext | undefined,
  bundle: { tokenAddress: string; logoHash: string | null; graduated: boolean },
  log: (message: string) => void,
): Promise<TokenLinks> => {
  const token = bundle.tokenAddress;
  const ours: TokenLinks = {
    image: bundle.logoHash ? draftLogoPath(bundle.logoHash) : null,
    tradeUrl: chain && bundle.graduated ? tokenPageUrl(chain.profile, "dex", token) : null,
    launchpadUrl: chain ? tokenPageUrl(chain.profile, "launchpad", token) : null,
  };
  if (!chain?.fourMeme) return ours;
  const cache = answersOf(chain.fourMeme);
  const cacheKey = `${token.toLowerCase()}:${bundle.graduated}`;
  let info = cache.get(cacheKey) ?? null;
  if (!info) {
    info = await getPublicTokenInfo(chain.fourMeme, {
      address: token as Address,
      onError: (error) => log(`four.meme token info for ${token}: ${error.message}`),
    }).catch((error: Error) => {
      log(`four.meme token info for ${token}: ${error.message}`);
      return null;
    });
    if (info) cache.set(cacheKey, info);
  }
  return {
    image: info?.image || ours.image,
    tradeUrl: info?.tradeUrl || ours.tradeUrl,
    launchpadUrl: ours.launchpadUrl,
  };
};
