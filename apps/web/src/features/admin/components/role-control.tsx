import { ROLES, type Role } from "@bundler/shared";
import { useState } from "react";
import toast from "react-hot-toast";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { useUpdateUserRole } from "../api/update-user-role.ts";
import { ADMIN_MESSAGES, failureWithReason } from "../utils/admin-messages.ts";

/**
 * The role: a select for a superadmin (SPEC §6), plain text for an admin. Picking another role
 * asks first; nothing changes until it is confirmed.
 */
export function RoleControl({
  userId,
  role,
  editable,
}: {
  userId: string;
  role: Role;
  editable: boolean;
}) {
  const update = useUpdateUserRole();
  const [asked, setAsked] = useState<Role | null>(null);
  if (!editable)
    return (
      <span data-testid="user-role" title="Only a superadmin can change a role">
        {role}
      </span>
    );

  const confirm = (next: Role) =>
    update.mutate(
      { id: userId, role: next },
      {
        onSuccess: (answer) => toast.success(ADMIN_MESSAGES.roleUpdated(answer.user.role)),
        onError: (error) => toast.error(failureWithReason(error, ADMIN_MESSAGES.roleFailed)),
        onSettled: () => setAsked(null),
      },
    );

  return (
    <>
      <select
        aria-label="Role"
        value={asked ?? role}
        disabled={update.isPending}
        onChange={(event) => {
          const next = event.target.value as Role;
          if (next !== role) setAsked(next);
        }}
        className="rounded-sm border border-line-strong bg-ink px-2 py-1 text-fg focus:border-accent focus:outline-none"
      >
        {ROLES.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
      {asked && (
        <ConfirmDialog
          title="Change role"
          message={`Change this key's role from ${role} to ${asked}? ${ROLE_EFFECT[asked]}`}
          confirmLabel="[change role]"
          busy={update.isPending}
          onConfirm={() => confirm(asked)}
          onCancel={() => setAsked(null)}
        />
      )}
    </>
  );
}

/** What the new role lets the key do, said before it is given. */
const ROLE_EFFECT: Record<Role, string> = {
  user: "It loses access to the admin dashboard.",
  admin: "It can see every user, their drafts and payment keys, and decide claims.",
  superadmin: "It can do everything an admin can, and change roles, including yours.",
};
