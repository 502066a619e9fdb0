import { planLaunchRoute } from "@bundler/shared";
import { keepPreviousData, queryOptions, skipToken, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { apiFetch } from "../../../lib/api-client.ts";
import type { BundleWallet, LaunchForm } from "../utils/launch-form.ts";
import { type PlanLaunchBody, planLaunchBody } from "../utils/plan-body.ts";

/** The server's plan of a launch that is not saved yet. Silent: the summary shows the failure. */
export const planLaunch = async (body: PlanLaunchBody, signal?: AbortSignal) =>
  (await apiFetch(planLaunchRoute, { body, signal, silent: true })).plan;

/** Keyed by the body: every change to the buys, keys, tip or sniper asks again. */
export const planLaunchQueryOptions = (body: PlanLaunchBody | null) =>
  queryOptions({
    queryKey: ["launch", "plan", body] as const,
    queryFn: body ? ({ signal }) => planLaunch(body, signal) : skipToken,
  });

/**
 * The plan of the create page's launch, asked only while authenticated and the form holds a
 * launch the server would accept (see planLaunchBody). The last plan stays shown while the
 * next one loads, so the panels do not flicker while typing.
 */
export function usePlanLaunch(
  form: LaunchForm,
  wallets: readonly BundleWallet[],
  enabled: boolean,
) {
  const body = useMemo(() => planLaunchBody(form, wallets), [form, wallets]);
  return useQuery({
    ...planLaunchQueryOptions(body),
    enabled: enabled && body !== null,
    placeholderData: keepPreviousData,
  });
}
