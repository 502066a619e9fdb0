import { plural } from "@bundler/shared";
import { useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Modal } from "../../../components/ui/modal.tsx";
import { downloadJson } from "../../../lib/download.ts";
import type { BundleWallet } from "../utils/launch-form.ts";

export const downloadWalletFile = (wallets: readonly BundleWallet[]) =>
  downloadJson(
    `bundle-wallets-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-")}.json`,
    wallets.map(({ address, privateKey }) => ({ address, privateKey })),
  );

/** After generation: the keys exist only here until saved, so this stays until they are downloaded. */
export function DownloadWalletsModal({
  wallets,
  onClose,
}: {
  wallets: readonly BundleWallet[];
  onClose: () => void;
}) {
  const [downloaded, setDownloaded] = useState(false);
  return (
    <Modal labelledBy="download-wallets-title" windowTitle="~/launch/download-wallets">
      <div className="flex flex-col gap-4">
        <h2 id="download-wallets-title" className="text-lg font-semibold text-accent">
          Download Your Wallets
        </h2>
        <p className="text-dim">
          {plural(wallets.length, "wallet")} {wallets.length === 1 ? "was" : "were"} generated.
          Their private keys are the only way to reach the funds and tokens they will hold. Download
          them now and keep the file safe.
        </p>
        <div className="flex justify-end gap-2">
          <Button
            onClick={() => {
              downloadWalletFile(wallets);
              setDownloaded(true);
            }}
          >
            Download Wallets
          </Button>
          <Button variant="secondary" disabled={!downloaded} onClick={onClose}>
            [close]
          </Button>
        </div>
      </div>
    </Modal>
  );
}
