import { type Account, AUTH_MESSAGES, type KeyKind } from "@bundler/shared";
import { useState } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/button.tsx";
import { copyText } from "../../../lib/clipboard.ts";
import { formatDateTime } from "../../../lib/format-date.ts";

export const KEY_KIND_LABELS: Record<KeyKind, string> = {
  free: "free",
  purchased: "paid",
  minted: "issued by an admin",
};

/** The key's readable prefix, then dots, then its last four characters. */
export const maskKey = (key: string): string =>
  key.length <= 10 ? "•".repeat(key.length) : `${key.slice(0, 6)}${"•".repeat(16)}${key.slice(-4)}`;

/** The access key, masked until [show], with [copy]; its kind, role and creation date. */
export function AccessKeyPanel({
  accessKey,
  account,
}: {
  accessKey: string;
  account: Account | undefined;
}) {
  const [shown, setShown] = useState(false);
  const copy = async () => {
    if (await copyText(accessKey)) toast.success(AUTH_MESSAGES.copied);
  };
  const row = "flex flex-wrap justify-between gap-x-4 gap-y-1";
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <code
          data-testid="account-key"
          className="min-w-0 flex-1 break-all rounded-sm border border-line-strong bg-ink px-3 py-2 text-accent"
        >
          {shown ? accessKey : maskKey(accessKey)}
        </code>
        <Button variant="bracket" onClick={() => setShown((value) => !value)}>
          {shown ? "[hide]" : "[show]"}
        </Button>
        <Button variant="bracket" onClick={copy} aria-label="Copy access key">
          [copy]
        </Button>
      </div>
      <dl className="flex flex-col gap-2 text-sm">
        <div className={row}>
          <dt className="text-dim">Kind</dt>
          <dd className="text-fg" data-testid="account-kind">
            {account ? KEY_KIND_LABELS[account.kind] : "..."}
          </dd>
        </div>
        <div className={row}>
          <dt className="text-dim">Role</dt>
          <dd className="text-fg" data-testid="account-role">
            {account?.role ?? "..."}
          </dd>
        </div>
        <div className={row}>
          <dt className="text-dim">Created</dt>
          <dd className="text-fg" data-testid="account-created">
            {account ? formatDateTime(account.createdAt) : "..."}
          </dd>
        </div>
      </dl>
    </div>
  );
}
