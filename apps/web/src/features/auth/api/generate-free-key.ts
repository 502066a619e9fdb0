import { type GenerateFreeKeyBody, generateFreeKeyRoute } from "@bundler/shared";
import { type UseMutationOptions, useMutation } from "@tanstack/react-query";
import { type ApiError, apiFetch, type RouteResponse } from "../../../lib/api-client.ts";

type GenerateFreeKeyResult = RouteResponse<typeof generateFreeKeyRoute>;

/** Issues the device's free access key (409 when this device already has one). */
export const generateFreeKey = (body: GenerateFreeKeyBody) =>
  apiFetch(generateFreeKeyRoute, { body, silent: true });

export const useGenerateFreeKey = (
  options?: Omit<
    UseMutationOptions<GenerateFreeKeyResult, ApiError, GenerateFreeKeyBody>,
    "mutationFn"
  >,
) => useMutation({ ...options, mutationFn: generateFreeKey });
