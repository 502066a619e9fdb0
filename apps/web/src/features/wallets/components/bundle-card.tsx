import { type Bundle, plural } from "@bundler/shared";
import { Link } from "react-router";
import { shortAddress } from "../../../lib/short-address.ts";
import { BundleBadge } from "./bundle-badge.tsx";
import { TokenImage } from "./token-image.tsx";

/** One launched token in the list; opens its wallets at `/wallets/{address}`. */
export function BundleCard({ bundle }: { bundle: Bundle }) {
  return (
    <Link
      to={`/wallets/${bundle.address}`}
      data-testid="bundle-card"
      aria-label={`${bundle.ticker} bundle`}
      className="flex flex-col gap-4 rounded-md border border-line bg-panel p-4 transition-colors hover:border-accent/60"
    >
      <div className="flex items-start gap-3">
        <TokenImage image={bundle.image} ticker={bundle.ticker} />
        <div className="min-w-0 flex-1">
          <h2 className="truncate font-semibold text-fg">${bundle.ticker}</h2>
          <p className="truncate text-xs text-dim">{bundle.name}</p>
        </div>
        <BundleBadge bundle={bundle} />
      </div>
      <div className="mt-auto flex items-center justify-between border-t border-line pt-3 text-xs">
        <span className="text-dim" title={bundle.address} data-testid="bundle-address">
          {shortAddress(bundle.address)}
        </span>
        <span className="text-fg" data-testid="bundle-wallet-count">
          {plural(bundle.walletCount, "wallet")}
        </span>
      </div>
    </Link>
  );
}
