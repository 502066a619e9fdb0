import { AUTH_MESSAGES } from "@bundler/shared";
import { type FormEvent, useId, useState } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/button.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { PassphraseField } from "../../../components/ui/passphrase-field.tsx";
import { ApiError } from "../../../lib/api-error.ts";
import { useValidateKey } from "../api/validate-key.ts";
import { useAuth } from "../hooks/use-auth.ts";
import { importFailureMessage, importKeyProblem } from "../utils/auth-messages.ts";
import { BackupError, decryptBackup } from "../utils/key-backup.ts";
import { AuthModalTitle } from "./auth-modal-title.tsx";

const labelClass = "text-xs uppercase tracking-widest text-faint";

/** A chosen file's text (FileReader: every browser has it, and so does jsdom). */
const readText = (file: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file);
  });

/**
 * Logs in with a key the user kept: pasted as it is, or read from the Account page's backup
 * file with its passphrase (decrypted here, in the browser).
 */
export function ImportKeyStep({ onBack }: { onBack: () => void }) {
  const { saveSession, startSession } = useAuth();
  const [value, setValue] = useState("");
  const [backup, setBackup] = useState<File | null>(null);
  const [passphrase, setPassphrase] = useState("");
  const [opening, setOpening] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const keyId = useId();
  const fileId = useId();
  const validate = useValidateKey();
  const busy = validate.isPending || opening;

  /** A toast; a backup's failure also stays beside its passphrase. */
  const fail = (message: string) => {
    if (backup) setProblem(message);
    toast.error(message);
  };

  /** The key the form names: the pasted one, or the backup's; null when it said why not. */
  const keyToImport = async (): Promise<string | null> => {
    if (!backup) {
      const wrong = importKeyProblem(value);
      if (wrong) fail(wrong);
      return wrong ? null : value.trim();
    }
    setOpening(true);
    try {
      return (await decryptBackup(await readText(backup), passphrase)).accessKey;
    } catch (error) {
      if (!(error instanceof BackupError)) console.error(error);
      fail(error instanceof BackupError ? error.message : AUTH_MESSAGES.failedRetry);
      return null;
    } finally {
      setOpening(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setProblem(null);
    const key = await keyToImport();
    if (!key) return;
    try {
      const { role } = await validate.mutateAsync(key);
      await saveSession({ key, role });
      toast.success(AUTH_MESSAGES.validated);
      startSession({ key, role });
    } catch (error) {
      if (!(error instanceof ApiError)) console.error(error);
      fail(importFailureMessage(error));
    }
  };

  return (
    <form className="flex flex-col gap-5" onSubmit={submit} noValidate>
      <div className="flex flex-col gap-2">
        <AuthModalTitle>Import Existing Key</AuthModalTitle>
        <p className="text-dim">
          Paste the access key you saved earlier, or open the backup file from your Account page.
        </p>
      </div>
      {!backup && (
        <div className="flex flex-col gap-2">
          <label htmlFor={keyId} className={labelClass}>
            Access key
          </label>
          <Input
            id={keyId}
            ref={(input) => input?.focus()}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            placeholder="lbk_..."
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
          />
        </div>
      )}
      <div className="flex flex-col gap-2">
        <label htmlFor={fileId} className={labelClass}>
          {backup ? "Backup file" : "Or a backup file"}
        </label>
        <input
          id={fileId}
          type="file"
          accept=".json,application/json"
          className="text-sm text-dim file:mr-3 file:rounded-sm file:border file:border-line-strong file:bg-raised file:px-3 file:py-1 file:text-fg"
          onChange={(event) => {
            setBackup(event.target.files?.[0] ?? null);
            setProblem(null);
          }}
        />
      </div>
      {backup && (
        <PassphraseField
          label="Backup passphrase"
          value={passphrase}
          onChange={setPassphrase}
          autoComplete="off"
        />
      )}
      {problem && (
        <p role="alert" className="text-sm text-bad" data-testid="import-problem">
          {problem}
        </p>
      )}
      <Button
        type="submit"
        busy={busy}
        busyLabel={opening ? "Opening backup..." : "Validating..."}
        className="w-full"
      >
        Import Key
      </Button>
      <Button variant="bracket" onClick={onBack} className="self-center">
        [back]
      </Button>
    </form>
  );
}
