import { type Role, updateUserRoleRoute } from "@bundler/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { adminKey } from "./get-admin-stats.ts";

/** Superadmins only. Silent: the page toasts "Role updated to {role}" or the failure. */
export const updateUserRole = ({ id, role }: { id: string; role: Role }) =>
  apiFetch(updateUserRoleRoute, { params: { id }, body: { role }, silent: true });

export const useUpdateUserRole = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUserRole,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKey }),
  });
};
