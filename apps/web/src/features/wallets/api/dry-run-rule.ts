import { dryRunRuleRoute } from "@bundler/shared";
import { useMutation } from "@tanstack/react-query";
import { apiFetch, type RouteBody, type RouteResponse } from "../../../lib/api-client.ts";

export type DryRunBody = RouteBody<typeof dryRunRuleRoute>;
export type DryRunAnswer = RouteResponse<typeof dryRunRuleRoute>;

/** What a rule would do at the current block; stores nothing. Silent: the form shows why not. */
export const dryRunRule = (body: DryRunBody) => apiFetch(dryRunRuleRoute, { body, silent: true });

export const useDryRunRule = () => useMutation({ mutationFn: dryRunRule });
