import { updateUserActiveRoute } from "@bundler/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { adminKey } from "./get-admin-stats.ts";

/** Turns a key on or off. Silent: the page toasts the server's answer. */
export const updateUserActive = ({ id, isActive }: { id: string; isActive: boolean }) =>
  apiFetch(updateUserActiveRoute, { params: { id }, body: { isActive }, silent: true });

export const useUpdateUserActive = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUserActive,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKey }),
  });
};
