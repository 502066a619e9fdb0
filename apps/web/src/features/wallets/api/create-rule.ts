import { createRuleRoute } from "@bundler/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch, type RouteBody } from "../../../lib/api-client.ts";
import { bundleRulesKey } from "./get-bundle-rules.ts";

export type CreateRuleBody = RouteBody<typeof createRuleRoute>;

/** Arms a rule. Silent: the form shows the server's sentence beside it. */
export const createRule = (body: CreateRuleBody) =>
  apiFetch(createRuleRoute, { body, silent: true });

export const useCreateRule = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRule,
    onSuccess: (_, body) =>
      queryClient.invalidateQueries({ queryKey: bundleRulesKey(body.address) }),
  });
};
