import { startBumperRoute, stopBumperRoute } from "@bundler/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { bumperKey } from "./get-bumpers.ts";

/** Starts the bumper's bumps. Silent: the page toasts the outcome. */
export const startBumper = (id: string) =>
  apiFetch(startBumperRoute, { params: { id }, silent: true });

/** Stops it; it can be started again. */
export const stopBumper = (id: string) =>
  apiFetch(stopBumperRoute, { params: { id }, silent: true });

export const useStartBumper = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startBumper,
    onSettled: () => queryClient.invalidateQueries({ queryKey: bumperKey }),
  });
};

export const useStopBumper = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: stopBumper,
    onSettled: () => queryClient.invalidateQueries({ queryKey: bumperKey }),
  });
};
