import { useState } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/button.tsx";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { useUpdateUserActive } from "../api/update-user-active.ts";
import { serverMessageOr } from "../utils/admin-messages.ts";

/** Whether the key works, and the control that turns it off or on again (confirmed first). */
export function ActiveControl({ userId, isActive }: { userId: string; isActive: boolean }) {
  const update = useUpdateUserActive();
  const [asking, setAsking] = useState(false);
  const confirm = () =>
    update.mutate(
      { id: userId, isActive: !isActive },
      {
        onSuccess: ({ message }) => toast.success(message),
        onError: (error) => toast.error(serverMessageOr(error, "Failed to update the key")),
        onSettled: () => setAsking(false),
      },
    );
  return (
    <span className="flex items-center gap-3">
      <span data-testid="user-active" className={isActive ? "text-ok" : "text-bad"}>
        {isActive ? "active" : "deactivated"}
      </span>
      <Button variant="bracket" onClick={() => setAsking(true)}>
        {isActive ? "[deactivate]" : "[activate]"}
      </Button>
      {asking && (
        <ConfirmDialog
          title={isActive ? "Deactivate key" : "Activate key"}
          message={
            isActive
              ? "Deactivate this key? Every request made with it is refused from now on."
              : "Activate this key again?"
          }
          confirmLabel={isActive ? "[deactivate]" : "[activate]"}
          busy={update.isPending}
          onConfirm={confirm}
          onCancel={() => setAsking(false)}
        />
      )}
    </span>
  );
}
