import { ROLES, type Role } from "@bundler/shared";
import toast from "react-hot-toast";
import { useUpdateUserRole } from "../api/update-user-role.ts";
import { ADMIN_MESSAGES, serverMessageOr } from "../utils/admin-messages.ts";

/** The role: a select for a superadmin (SPEC §6), plain text for an admin. */
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
  if (!editable)
    return (
      <span data-testid="user-role" title="Only a superadmin can change a role">
        {role}
      </span>
    );

  const change = (next: Role) => {
    if (next === role) return;
    update.mutate(
      { id: userId, role: next },
      {
        onSuccess: (answer) => toast.success(ADMIN_MESSAGES.roleUpdated(answer.user.role)),
        onError: (error) => toast.error(serverMessageOr(error, ADMIN_MESSAGES.roleFailed)),
      },
    );
  };

  return (
    <select
      aria-label="Role"
      value={update.isPending ? update.variables.role : role}
      disabled={update.isPending}
      onChange={(event) => change(event.target.value as Role)}
      className="rounded-sm border border-line-strong bg-ink px-2 py-1 text-fg focus:border-accent focus:outline-none"
    >
      {ROLES.map((option) => (
        <option key={option} value={option}>
          {option}
        </option>
      ))}
    </select>
  );
}
