import type { Bumper } from "@bundler/shared";
import { Section } from "../../../components/ui/section.tsx";
import { formatBnb } from "../../../lib/bnb.ts";
import { usePublicConfig } from "../../../lib/public-config.ts";
import { useBumperWallets } from "../api/get-bumper-wallets.ts";
import { BumperWalletsTable } from "./bumper-wallets-table.tsx";

/** The wallet bumping now (address, balance), then every wallet the bumper has used. */
export function BumperWalletsPanel({ bumper }: { bumper: Bumper }) {
  const wallets = useBumperWallets(bumper.id, bumper.active);
  const explorerUrl = usePublicConfig().data?.explorerUrl ?? null;
  const list = wallets.data?.wallets ?? [];
  const current = list.find((wallet) => wallet.isActive);
  return (
    <>
      <Section title="Current Active Wallet">
        <div className="flex flex-col gap-1 text-sm" data-testid="active-wallet">
          <code className="break-all text-fg">{current?.address ?? bumper.address}</code>
          <span className="text-dim">
            Balance{" "}
            <span className="tabular-nums text-fg">
              {formatBnb(current?.balance ?? bumper.balance)} BNB
            </span>
            {current && <span className="text-dim"> · {current.tokens} tokens</span>}
          </span>
        </div>
      </Section>
      <Section title={`Wallets Used (${list.length})`}>
        {wallets.isError ? (
          <p className="text-sm text-bad">Failed to load the bumper's wallets.</p>
        ) : wallets.isPending ? (
          <p className="text-sm text-dim">loading wallets...</p>
        ) : (
          <BumperWalletsTable wallets={list} explorerUrl={explorerUrl} />
        )}
      </Section>
    </>
  );
}
