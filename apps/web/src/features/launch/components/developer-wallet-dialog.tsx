import { useState } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/button.tsx";
import { Modal } from "../../../components/ui/modal.tsx";
import { copyText } from "../../../lib/clipboard.ts";
import { downloadJson } from "../../../lib/download.ts";
import type { KeyedWallet } from "../utils/private-key.ts";

/** Shows a freshly generated deployer key; it closes only once the key was copied or downloaded. */
export function DeveloperWalletDialog({
  wallet,
  onClose,
}: {
  wallet: KeyedWallet;
  onClose: () => void;
}) {
  const [saved, setSaved] = useState(false);
  const copy = async () => {
    if (await copyText(wallet.privateKey)) {
      toast.success("Copied to clipboard!");
      setSaved(true);
    }
  };
  const download = () => {
    downloadJson(`developer-wallet-${wallet.address.slice(2, 8)}.json`, [wallet]);
    setSaved(true);
  };
  return (
    <Modal labelledBy="dev-wallet-title" windowTitle="~/launch/developer-wallet">
      <div className="flex flex-col gap-4">
        <h2 id="dev-wallet-title" className="text-lg font-semibold text-fg">
          Save Your Developer Wallet
        </h2>
        <p className="text-dim">
          This key controls the token's deployer. It exists only in this browser until you save the
          draft: copy or download it before continuing.
        </p>
        <dl className="flex flex-col gap-2 text-xs">
          <dt className="text-faint">address</dt>
          <dd className="break-all text-fg" data-testid="developer-address">
            {wallet.address}
          </dd>
          <dt className="text-faint">private key</dt>
          <dd className="break-all text-accent" data-testid="developer-key">
            {wallet.privateKey}
          </dd>
        </dl>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={copy}>
            [copy]
          </Button>
          <Button variant="secondary" onClick={download}>
            [download]
          </Button>
          <Button
            className="ml-auto"
            disabled={!saved}
            onClick={onClose}
            title={saved ? undefined : "Copy or download the key first"}
          >
            Close
          </Button>
        </div>
      </div>
    </Modal>
  );
}
