import { Button } from "../../../components/ui/button.tsx";
import { PRIMARY_LABELS, type PrimaryAction, type SecondaryAction } from "../utils/main-action.ts";

export function MainActions({
  primary,
  secondary,
  editing,
  busy,
  onPrimary,
  onMissingFunds,
  onPay,
  onExecute,
}: {
  primary: PrimaryAction;
  secondary: SecondaryAction;
  editing: boolean;
  busy: boolean;
  onPrimary: () => void;
  onMissingFunds: () => void;
  onPay: () => void;
  onExecute: () => void;
}) {
  const label = primary === "save" && editing ? "Update Draft" : PRIMARY_LABELS[primary];
  return (
    <div className="flex flex-wrap gap-3">
      <Button className="min-w-48" busy={busy} busyLabel="working..." onClick={onPrimary}>
        {label}
      </Button>
      {secondary === "missing-funds" && (
        <Button variant="secondary" disabled={busy} onClick={onMissingFunds}>
          Missing Funds (Go to Disperser)
        </Button>
      )}
      {secondary === "pay" && (
        <Button variant="secondary" disabled={busy} onClick={onPay}>
          Pay Now
        </Button>
      )}
      {secondary === "execute" && (
        <Button variant="secondary" disabled={busy} onClick={onExecute}>
          Execute Launch
        </Button>
      )}
    </div>
  );
}
