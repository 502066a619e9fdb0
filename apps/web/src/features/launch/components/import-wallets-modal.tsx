import { useState } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/button.tsx";
import { Modal } from "../../../components/ui/modal.tsx";
import { type KeyedWallet, parsePrivateKeyList } from "../utils/private-key.ts";
import { TextArea } from "./textarea.tsx";

export const NO_VALID_KEYS = "No valid private keys entered";

/** Comma-separated keys, checked in the browser; invalid ones are dropped. */
export function ImportWalletsModal({
  onImport,
  onClose,
}: {
  onImport: (wallets: KeyedWallet[]) => void;
  onClose: () => void;
}) {
  const [text, setText] = useState("");
  const submit = () => {
    const wallets = parsePrivateKeyList(text);
    if (wallets.length === 0) {
      toast.error(NO_VALID_KEYS);
      return;
    }
    onImport(wallets);
    onClose();
  };
  return (
    <Modal labelledBy="import-wallets-title" windowTitle="~/launch/import-wallets">
      <div className="flex flex-col gap-4">
        <h2 id="import-wallets-title" className="text-lg font-semibold text-fg">
          Import Wallets
        </h2>
        <p className="text-dim">
          Paste private keys separated by commas. Invalid keys are dropped.
        </p>
        <TextArea
          aria-label="Private keys"
          rows={5}
          value={text}
          placeholder="0xabc..., 0xdef..."
          onChange={(e) => setText(e.target.value)}
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            [cancel]
          </Button>
          <Button onClick={submit}>Import</Button>
        </div>
      </div>
    </Modal>
  );
}
