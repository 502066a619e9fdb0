import { Button } from "../../../components/ui/button.tsx";
import { Modal } from "../../../components/ui/modal.tsx";

const WAGYU = `[
  { "address": "0x1234...", "privateKey": "0xabcd..." },
  { "address": "0x5678...", "privateKey": "0xef01..." }
]`;
const SIMPLE = `[
  "0xabcd...",
  "0xef01..."
]`;

/** The two wallet-file formats the upload accepts. */
export function UploadHelpModal({ onClose }: { onClose: () => void }) {
  return (
    <Modal labelledBy="upload-help-title" windowTitle="~/launch/upload-help">
      <div className="flex flex-col gap-4">
        <h2 id="upload-help-title" className="text-lg font-semibold text-fg">
          Wallet File Formats
        </h2>
        <p className="text-dim">Upload a .json file in either format:</p>
        <div>
          <p className="text-xs text-faint">Wagyu format</p>
          <pre className="overflow-x-auto rounded-sm border border-line bg-ink p-3 text-xs text-accent">
            {WAGYU}
          </pre>
        </div>
        <div>
          <p className="text-xs text-faint">Simple format</p>
          <pre className="overflow-x-auto rounded-sm border border-line bg-ink p-3 text-xs text-accent">
            {SIMPLE}
          </pre>
        </div>
        <Button variant="secondary" className="self-end" onClick={onClose}>
          [close]
        </Button>
      </div>
    </Modal>
  );
}
