import { AUTH_MESSAGES } from "@bundler/shared";
import { type ReactNode, useState } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/button.tsx";
import { copyText } from "../../../lib/clipboard.ts";
import { downloadText } from "../../../lib/download.ts";
import { useAuth } from "../hooks/use-auth.ts";
import { AuthModalTitle } from "./auth-modal-title.tsx";

export interface GeneratedKeyStepProps {
  accessKey: string;
  /** What "Continue to App" does; by default it logs in with the key (already stored). */
  onContinue?: () => void;
  /** Said under the title. */
  note?: ReactNode;
  /** Another way out beside "Continue to App" (enabled under the same condition). */
  extra?: (saved: boolean) => ReactNode;
}

/** The key as a file: the key on its own line. */
const downloadKey = (accessKey: string) =>
  downloadText(`launch-bundler-key-${accessKey.slice(4, 10)}.txt`, `${accessKey}\n`);

/**
 * Shows a freshly generated or bought (already stored) key. It stays until "Continue to App",
 * which is enabled only once the key was copied or downloaded: a key lost here cannot be
 * recovered, and with it everything the account holds.
 */
export function GeneratedKeyStep({ accessKey, onContinue, note, extra }: GeneratedKeyStepProps) {
  const { startSession } = useAuth();
  const [saved, setSaved] = useState(false);
  const continueToApp = onContinue ?? (() => startSession({ key: accessKey, role: "user" }));

  const copy = async () => {
    if (await copyText(accessKey)) {
      toast.success(AUTH_MESSAGES.copied);
      setSaved(true);
    }
  };
  const download = () => {
    downloadKey(accessKey);
    setSaved(true);
  };

  return (
    <div className="flex flex-col gap-5" data-testid="generated-key-step">
      <div className="flex flex-col gap-2">
        <AuthModalTitle>Your Access Key</AuthModalTitle>
        {note ?? (
          <p className="text-dim">
            Save this key somewhere safe: it is how you get back in on another browser, and without
            it this account cannot be reached again.
          </p>
        )}
      </div>
      <code
        data-testid="generated-key"
        className="break-all rounded-sm border border-accent/40 bg-ink px-3 py-2 text-accent"
      >
        {accessKey}
      </code>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={copy} aria-label="Copy access key">
          [copy]
        </Button>
        <Button variant="secondary" onClick={download} aria-label="Download access key">
          [download]
        </Button>
      </div>
      <Button
        onClick={continueToApp}
        disabled={!saved}
        title={saved ? undefined : "Copy or download the key first"}
        className="w-full"
      >
        Continue to App
      </Button>
      {extra?.(saved)}
      {!saved && (
        <p className="text-xs text-faint" data-testid="save-key-first">
          Copy or download the key to continue.
        </p>
      )}
    </div>
  );
}
