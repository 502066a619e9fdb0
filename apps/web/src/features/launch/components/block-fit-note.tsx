import { usePublicConfig } from "../../../lib/public-config.ts";
import { blockFitSentence, laterBundlesSentence } from "../utils/block-fit.ts";

/**
 * How many buying wallets share the create's block with the builders this server sends to,
 * and why (each builder's cap); with more wallets than that, where the others buy.
 */
export function BlockFitNote({ walletCount }: { walletCount: number }) {
  const builders = usePublicConfig().data?.builders;
  if (!builders) return null;
  const later = laterBundlesSentence(builders, walletCount);
  return (
    <p className="text-xs text-faint" data-testid="block-fit">
      {blockFitSentence(builders)}
      {later && <span className="text-dim"> {later}</span>}
    </p>
  );
}
