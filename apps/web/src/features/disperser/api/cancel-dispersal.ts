import { cancelDispersalRoute } from "@bundler/shared";
import { apiFetch } from "../../../lib/api-client.ts";

/** Cancels a dispersal that is still waiting for its funding. */
export const cancelDispersal = (dispersalId: string) =>
  apiFetch(cancelDispersalRoute, { body: { dispersalId }, silent: true });
