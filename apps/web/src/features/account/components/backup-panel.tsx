import { type FormEvent, useId, useState } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/button.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { ApiError, failureText } from "../../../lib/api-error.ts";
import { downloadJson } from "../../../lib/download.ts";
import { backupFileName, encryptBackup, passphraseProblem } from "../../auth/utils/key-backup.ts";
import { getAccountKeys } from "../api/get-account-keys.ts";

export const BACKUP_FAILED = "Failed to create the backup";

const labelClass = "text-xs uppercase tracking-widest text-faint";

/**
 * Downloads one file with the access key and every private key the server holds for this
 * user, encrypted here with the passphrase typed (never sent anywhere). [import key] reads it
 * back with the same passphrase.
 */
export function BackupPanel({ accessKey }: { accessKey: string }) {
  const [passphrase, setPassphrase] = useState("");
  const [repeated, setRepeated] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const passphraseId = useId();
  const repeatId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const wrong = passphraseProblem(passphrase, repeated);
    setProblem(wrong);
    if (wrong) return;
    setBusy(true);
    try {
      const { keys } = await getAccountKeys();
      const file = await encryptBackup({ accessKey, wallets: keys }, passphrase);
      downloadJson(backupFileName(accessKey), file);
      setPassphrase("");
      setRepeated("");
      toast.success(
        `Backup downloaded: your access key and ${keys.length} wallet ${keys.length === 1 ? "key" : "keys"}, encrypted with your passphrase.`,
      );
    } catch (error) {
      if (!(error instanceof ApiError)) console.error(error);
      const reason = failureText(error, "");
      setProblem(reason ? `${BACKUP_FAILED}: ${reason}` : BACKUP_FAILED);
      toast.error(BACKUP_FAILED);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
      <p className="text-sm text-dim">
        One file with your access key and the private key of every wallet the server keeps for you
        (deployer, bundle, tip, bumper and dispersal wallets), encrypted in this browser with a
        passphrase you choose. Keep the passphrase apart from the file: without it the file cannot
        be opened. Restore it with [import existing key].
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-2">
          <label htmlFor={passphraseId} className={labelClass}>
            Backup passphrase
          </label>
          <Input
            id={passphraseId}
            type="password"
            value={passphrase}
            onChange={(event) => setPassphrase(event.target.value)}
            autoComplete="new-password"
          />
        </div>
        <div className="flex flex-col gap-2">
          <label htmlFor={repeatId} className={labelClass}>
            Repeat the passphrase
          </label>
          <Input
            id={repeatId}
            type="password"
            value={repeated}
            onChange={(event) => setRepeated(event.target.value)}
            autoComplete="new-password"
          />
        </div>
      </div>
      {problem && (
        <p
          role="alert"
          className="whitespace-pre-line text-sm text-bad"
          data-testid="backup-problem"
        >
          {problem}
        </p>
      )}
      <Button type="submit" busy={busy} busyLabel="[encrypting...]" className="self-start">
        [download backup]
      </Button>
    </form>
  );
}
