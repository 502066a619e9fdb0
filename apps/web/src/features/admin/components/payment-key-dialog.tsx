import { type AdminDraftRow, PAYMENT_KEY_REASON_MESSAGE } from "@bundler/shared";
import { type FormEvent, useId, useState } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Modal } from "../../../components/ui/modal.tsx";
import { ApiError } from "../../../lib/api-error.ts";
import { copyText } from "../../../lib/clipboard.ts";
import { useGetPaymentKey } from "../api/get-payment-key.ts";
import { ADMIN_MESSAGES } from "../utils/admin-messages.ts";

const MASK = "•".repeat(64);

/**
 * A draft's payment private key, for a refund by hand (SPEC §6): the warning that every view is
 * logged, a reason (kept in the audit log), then the key masked until [show]; [copy] only once
 * it is shown. Nothing is kept after the dialog closes.
 */
export function PaymentKeyDialog({
  draft,
  onClose,
}: {
  draft: AdminDraftRow;
  onClose: () => void;
}) {
  const titleId = useId();
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [revealed, setRevealed] = useState(false);
  const retrieve = useGetPaymentKey();
  const answer = retrieve.data;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (retrieve.isPending) return;
    const why = reason.trim();
    setProblem(why ? null : PAYMENT_KEY_REASON_MESSAGE);
    if (!why) return;
    retrieve.mutate(
      { draftId: draft._id, reason: why },
      {
        onError: (error) => {
          const forbidden = error instanceof ApiError && error.status === 403;
          toast.error(forbidden ? ADMIN_MESSAGES.onlyAdmins : ADMIN_MESSAGES.keyFailed);
          const detail = error instanceof ApiError ? error.serverMessage : null;
          if (detail && !forbidden) toast(detail);
        },
      },
    );
  };

  const copy = async () => {
    if (answer && (await copyText(answer.privateKey))) toast.success(ADMIN_MESSAGES.keyCopied);
  };

  return (
    <Modal labelledBy={titleId} windowTitle="admin --payment-key" data-testid="payment-key-dialog">
      <div className="flex flex-col gap-4">
        <h2 id={titleId} className="text-lg font-semibold text-fg">
          Payment private key · {draft.ticker}
        </h2>
        <p
          role="note"
          className="rounded-sm border border-accent/50 bg-accent/10 px-3 py-2 text-sm text-accent"
        >
          {ADMIN_MESSAGES.keyWarning}
        </p>
        {!answer && (
          <form className="flex flex-col gap-3" onSubmit={submit} noValidate>
            <Field label="Reason" error={problem} hint="e.g. refund of a late payment to 0x…">
              <Input
                aria-label="Reason"
                value={reason}
                maxLength={500}
                onChange={(event) => setReason(event.target.value)}
                autoComplete="off"
              />
            </Field>
            <Button
              type="submit"
              busy={retrieve.isPending}
              busyLabel="retrieving..."
              className="self-start"
            >
              Retrieve Key
            </Button>
          </form>
        )}
        {answer && (
          <div className="flex flex-col gap-2">
            <span className="text-xs text-faint">Address {answer.address}</span>
            <code
              data-testid="payment-private-key"
              className="break-all rounded-sm border border-line-strong bg-ink px-3 py-2 text-fg"
            >
              {revealed ? answer.privateKey : MASK}
            </code>
            <div className="flex gap-3">
              <Button variant="secondary" onClick={() => setRevealed((shown) => !shown)}>
                {revealed ? "Hide" : "Show"}
              </Button>
              <Button variant="secondary" onClick={copy} disabled={!revealed}>
                Copy
              </Button>
            </div>
          </div>
        )}
        <div className="flex justify-end">
          <Button variant="secondary" onClick={onClose}>
            [close]
          </Button>
        </div>
      </div>
    </Modal>
  );
}
