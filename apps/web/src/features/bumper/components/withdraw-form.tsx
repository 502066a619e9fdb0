import { bumperReceiverError } from "@bundler/shared";
import { useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Section } from "../../../components/ui/section.tsx";

/** Sends every BNB the bumper holds to a receiver, any time (the bumper stops first). */
export function WithdrawForm({
  busy,
  onWithdraw,
}: {
  busy: boolean;
  /** Resolves true once the BNB left, so the receiver can clear. */
  onWithdraw: (receiver: string) => Promise<boolean>;
}) {
  const [receiver, setReceiver] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    const message = bumperReceiverError(receiver);
    setError(message);
    if (message) return;
    if (await onWithdraw(receiver.trim())) setReceiver("");
  };
  return (
    <Section title="Withdraw">
      <Field label="Receiver" error={error}>
        <Input
          aria-label="Receiver address"
          placeholder="0x…"
          spellCheck={false}
          value={receiver}
          onChange={(e) => {
            setReceiver(e.target.value);
            setError(null);
          }}
        />
      </Field>
      <Button variant="secondary" busy={busy} busyLabel="withdrawing..." onClick={submit}>
        Withdraw funds
      </Button>
    </Section>
  );
}
