import { plural } from "@bundler/shared";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/button.tsx";
import { PassphraseField } from "../../../components/ui/passphrase-field.tsx";
import { ApiError, failureText } from "../../../lib/api-error.ts";
import { downloadJson } from "../../../lib/download.ts";
import { backupFileName, encryptBackup, passphraseProblem } from "../../auth/utils/key-backup.ts";
import { getAccountKeys } from "../api/get-account-keys.ts";

export const BACKUP_FAILED = "Failed to create the backup";

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
        `Backup downloaded: your access key and ${plural(keys.length, "wallet key")}, encrypted with your passphrase.`,
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
        <PassphraseField
          label="Backup passphrase"
          value={passphrase}
          onChange={setPassphrase}
          autoComplete="new-password"
        />
        <PassphraseField
          label="Repeat the passphrase"
          value={repeated}
          onChange={setRepeated}
          autoComplete="new-password"
        />
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
