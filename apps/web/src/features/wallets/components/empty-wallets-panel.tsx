import { ADDRESS_PATTERN } from "@bundler/shared";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Section } from "../../../components/ui/section.tsx";

/** "Empty Wallets": every selected wallet's BNB, less gas, to one receiver. */
export function EmptyWalletsPanel({
  receiver,
  onReceiver,
  selectedCount,
  busy,
  onEmpty,
}: {
  receiver: string;
  onReceiver: (value: string) => void;
  selectedCount: number;
  busy: boolean;
  onEmpty: () => void;
}) {
  const address = receiver.trim();
  const invalid = address !== "" && !ADDRESS_PATTERN.test(address);
  const ready = selectedCount > 0 && address !== "" && !invalid;
  return (
    <Section title="Empty Wallets">
      <Field label="Receiver" error={invalid ? "Invalid address format" : null}>
        <Input
          aria-label="Receiver address"
          placeholder="0x…"
          spellCheck={false}
          value={receiver}
          onChange={(e) => onReceiver(e.target.value)}
        />
      </Field>
      <Button
        variant="secondary"
        disabled={!ready}
        busy={busy}
        busyLabel="emptying..."
        onClick={onEmpty}
      >
        [empty selected wallets]
      </Button>
    </Section>
  );
}
