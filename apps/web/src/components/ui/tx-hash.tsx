import type { ReactNode } from "react";
import { explorerTxUrl } from "../../lib/terminal-line.ts";

export interface TxHashProps {
  hash: string;
  explorerUrl: string | null;
  /** What is shown; the full hash by default. */
  children?: ReactNode;
  className?: string;
}

/**
 * A transaction hash as a link, opened in a new tab: to the block explorer, or on a chain
 * without one (the local chain) to the app's own transaction page.
 */
export function TxHash({
  hash,
  explorerUrl,
  children = hash,
  className = "underline decoration-dotted hover:text-accent",
}: TxHashProps) {
  return (
    <a
      href={explorerTxUrl(explorerUrl, hash)}
      target="_blank"
      rel="noreferrer"
      data-tx-hash={hash}
      className={`break-all ${className}`}
    >
      {children}
    </a>
  );
}
