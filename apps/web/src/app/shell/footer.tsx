import { useState } from "react";
import { usePublicConfig } from "../../lib/public-config.ts";
import { useSocketConnected, useSocketEvent } from "../../lib/socket.ts";

function BlockNumber() {
  const [block, setBlock] = useState<number | null>(null);
  const connected = useSocketConnected();
  useSocketEvent("block", (blockNumber) => setBlock(Number(blockNumber)));

  return (
    <span className="flex items-center gap-2">
      <span
        aria-hidden="true"
        className={`size-1.5 rounded-full ${connected ? "bg-ok shadow-[0_0_6px] shadow-ok" : "bg-faint"}`}
      />
      <span data-testid="block-number" className="tabular-nums">
        {block === null ? "block —" : `block #${block}`}
      </span>
    </span>
  );
}

export function Footer() {
  const { data: config } = usePublicConfig();
  const links = config
    ? [
        { label: "[social]", href: config.links.social },
        { label: "[group]", href: config.links.group },
        { label: "[docs]", href: config.links.docs },
      ].filter((link) => link.href !== "")
    : [];

  return (
    <footer className="border-t border-line text-xs text-dim">
      <div className="mx-auto flex w-full max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-4">
        <BlockNumber />
        {config && (
          <span className="text-faint">
            chain {config.chain} ({config.chainId})
          </span>
        )}
        <ul className="flex gap-4 sm:ml-auto">
          {links.map((link) => (
            <li key={link.label}>
              <a
                href={link.href}
                target="_blank"
                rel="noopener noreferrer"
                className="hover:text-accent"
              >
                {link.label}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </footer>
  );
}
