import { type CreateDispersalBody, createDispersalRoute } from "@bundler/shared";
import { apiFetch } from "../../../lib/api-client.ts";

/** Opens a dispersal: a fresh receiver to fund with the amount, its expiry and its chains. */
export const createDispersal = (body: CreateDispersalBody) =>
  apiFetch(createDispersalRoute, { body, silent: true });
