import { getPublicTokenInfo, tokenPageUrl } from "@bundler/chain";
import { draftLogoPath } from "@bundler/shared";
import type { Address } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";

export interface TokenLinks {
  image: string | null;
  tradeUrl: string | null;
  launchpadUrl: string | null;
}

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
  const info = await getPublicTokenInfo(chain.fourMeme, {
    address: token as Address,
    onError: (error) => log(`four.meme token info for ${token}: ${error.message}`),
  }).catch((error: Error) => {
    log(`four.meme token info for ${token}: ${error.message}`);
    return null;
  });
  return {
    image: info?.image || ours.image,
    tradeUrl: info?.tradeUrl || ours.tradeUrl,
    launchpadUrl: ours.launchpadUrl,
  };
};
