import type { MouseEventHandler, ReactNode } from "react";
import { Link } from "react-router";
import { explorerAddressUrl } from "../../lib/explorer-links.ts";

export interface AddressLinkProps {
  address: string;
  explorerUrl: string | null;
  /** The explorer's `/token/` page instead of `/address/` (the app's own page is the same). */
  kind?: "address" | "token";
  /** What is shown; the full address by default. */
  children?: ReactNode;
  /** The app's own page opens in this tab (between the tx and address pages); explorers never do. */
  inPlace?: boolean;
  className?: string;
  title?: string;
  onClick?: MouseEventHandler<HTMLAnchorElement>;
}

/**
 * An address as a link: to the block explorer, or on a chain without one (the local chain) to
 * the app's own address page. Opens a new tab unless `inPlace`, like a transaction hash does.
 */
export function AddressLink({
  address,
  explorerUrl,
  kind = "address",
  children = address,
  inPlace = false,
  className = "break-all underline decoration-dotted hover:text-accent",
  ...rest
}: AddressLinkProps) {
  const href = explorerAddressUrl(explorerUrl, address, kind);
  if (inPlace && href.startsWith("/"))
    return (
      <Link to={href} className={className} data-address={address} {...rest}>
        {children}
      </Link>
    );
  return (
    <a
      href={href}
      target="_blank"
      rel="noreferrer"
      className={className}
      data-address={address}
      {...rest}
    >
      {children}
    </a>
  );
}
