import type { Bumper } from "@bundler/shared";
import { Button } from "../../../components/ui/button.tsx";
import { isCompleted } from "../utils/bumper-messages.ts";

/**
 * Start, or Stop while it runs. Disabled while anything is loading or the bumper holds no BNB
 * (SPEC §4), and once it has made every bump.
 */
export function BumperControls({
  bumper,
  loading,
  onStart,
  onStop,
}: {
  bumper: Bumper;
  loading: boolean;
  onStart: () => void;
  onStop: () => void;
}) {
  const disabled = loading || Number(bumper.balance) <= 0 || isCompleted(bumper);
  return (
    <div className="flex flex-wrap items-center gap-3">
      {bumper.active ? (
        <Button variant="secondary" disabled={disabled} onClick={onStop}>
          Stop bumper
        </Button>
      ) : (
        <Button disabled={disabled} onClick={onStart}>
          Start bumper
        </Button>
      )}
      {bumper.stopReason && !bumper.active && (
        <span className="text-xs text-dim" data-testid="stop-reason">
          stopped: {bumper.stopReason}
        </span>
      )}
    </div>
  );
}
