import { Button } from "../../../components/ui/button.tsx";
import { Modal } from "../../../components/ui/modal.tsx";
import { formatBnb } from "../../../lib/bnb.ts";
import type { BundleWallet } from "../utils/launch-form.ts";
import type { WalletProblem } from "../utils/wallet-problem.ts";
import { downloadWalletFile } from "./download-wallets-modal.tsx";

/**
 * The bundle wallets with keys, buy values and balances; [refresh] refetches the balances. The
 * row the server refused (`problem`) is marked, with its sentence.
 */
export function WalletsModal({
  wallets,
  problem = null,
  balances,
  refreshing,
  onRefresh,
  onClose,
}: {
  wallets: readonly BundleWallet[];
  problem?: WalletProblem | null;
  balances: ReadonlyMap<string, string> | undefined;
  refreshing: boolean;
  onRefresh: () => void;
  onClose: () => void;
}) {
  return (
    <Modal labelledBy="wallets-title" windowTitle="~/launch/wallets">
      <div className="flex flex-col gap-4">
        <div className="flex items-baseline justify-between gap-2">
          <h2 id="wallets-title" className="text-lg font-semibold text-fg">
            Generated Wallets ({wallets.length})
          </h2>
          <Button variant="bracket" busy={refreshing} busyLabel="refreshing..." onClick={onRefresh}>
            [refresh]
          </Button>
        </div>
        <ul className="flex max-h-[400px] flex-col gap-2 overflow-y-auto text-xs">
          {wallets.map((wallet, index) => {
            const refused = problem?.row === index + 1;
            return (
              <li
                key={wallet.address}
                data-testid="wallet-row"
                aria-invalid={refused || undefined}
                className={`rounded-sm border bg-ink p-2 ${refused ? "border-bad" : "border-line"}`}
              >
                <div className="flex justify-between gap-2">
                  <span className="text-faint">#{index + 1}</span>
                  <span className="text-dim">
                    buy {formatBnb(wallet.buyValue)} · bal{" "}
                    {formatBnb(balances?.get(wallet.address.toLowerCase()))} BNB
                  </span>
                </div>
                <div className="break-all text-fg">{wallet.address}</div>
                <div className="break-all text-faint">{wallet.privateKey}</div>
                {refused && problem && (
                  <p role="alert" className="text-bad">
                    {problem.message}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => downloadWalletFile(wallets)}>
            [download]
          </Button>
          <Button onClick={onClose}>Close</Button>
        </div>
      </div>
    </Modal>
  );
}
