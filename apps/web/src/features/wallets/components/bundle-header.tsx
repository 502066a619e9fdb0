import type { Bundle } from "@bundler/shared";
import toast from "react-hot-toast";
import { Link } from "react-router";
import { copyText } from "../../../lib/clipboard.ts";
import { explorerAddressUrl } from "../../../lib/explorer-links.ts";
import { BundleBadge } from "./bundle-badge.tsx";
import { TokenImage } from "./token-image.tsx";

function ExternalLink({ href, children }: { href: string; children: string }) {
  return (
    <a href={href} target="_blank" rel="noreferrer" className="text-dim hover:text-accent">
      {children}
    </a>
  );
}

/**
 * The bundle's token: logo, ticker, address, and where to look at it: the explorer's token page,
 * or on a chain without one (the local chain) the app's own address page.
 */
export function BundleHeader({
  bundle,
  explorerUrl,
}: {
  bundle: Bundle;
  explorerUrl: string | null;
}) {
  const explorer = explorerAddressUrl(explorerUrl, bundle.address, "token");
  const copy = async () => {
    if (await copyText(bundle.address)) toast.success("Copied to clipboard!");
  };
  return (
    <header className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-start">
      <TokenImage image={bundle.image} ticker={bundle.ticker} size="lg" />
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <div className="flex flex-wrap items-center gap-3">
          <h2 className="text-xl font-semibold text-fg">${bundle.ticker}</h2>
          <span className="text-dim">{bundle.name}</span>
          <BundleBadge bundle={bundle} />
        </div>
        <div className="flex flex-wrap items-center gap-2 text-xs">
          <code className="break-all text-fg" data-testid="token-address">
            {bundle.address}
          </code>
          <button
            type="button"
            aria-label="Copy token address"
            onClick={copy}
            className="text-dim hover:text-accent"
          >
            [copy]
          </button>
        </div>
        <nav aria-label="Token links" className="flex flex-wrap gap-x-4 gap-y-1">
          <ExternalLink href={explorer}>
            {explorerUrl ? "[explorer]" : "[address page]"}
          </ExternalLink>
          {bundle.launchpadUrl && (
            <ExternalLink href={bundle.launchpadUrl}>[launchpad page]</ExternalLink>
          )}
          {bundle.tradeUrl && <ExternalLink href={bundle.tradeUrl}>[trade]</ExternalLink>}
        </nav>
      </div>
      <Link to="/wallets" className="shrink-0 text-dim hover:text-accent">
        [back]
      </Link>
    </header>
  );
}
