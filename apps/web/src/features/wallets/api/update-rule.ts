import { updateRuleRoute } from "@bundler/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch, type RouteBody } from "../../../lib/api-client.ts";
import { bundleRulesKey } from "./get-bundle-rules.ts";

export type UpdateRuleBody = RouteBody<typeof updateRuleRoute>;

/** A new trigger, action or execution for an armed or paused rule. Silent: the form says why not. */
export const updateRule = (id: string, body: UpdateRuleBody) =>
  apiFetch(updateRuleRoute, { params: { id }, body, silent: true });

export const useUpdateRule = (address: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateRuleBody }) => updateRule(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bundleRulesKey(address) }),
  });
};
