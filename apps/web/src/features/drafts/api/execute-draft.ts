import { executeDraftRoute } from "@bundler/shared";
import { draftRequest } from "./draft-request.ts";

/** Starts the launch job for a paid draft; progress arrives on the socket. */
export const executeDraft = (id: string) => draftRequest(executeDraftRoute, id);
