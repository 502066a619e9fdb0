import { validateKeyRoute } from "@bundler/shared";
import { type UseMutationOptions, useMutation } from "@tanstack/react-query";
import { type ApiError, apiFetch, type RouteResponse } from "../../../lib/api-client.ts";

type ValidateKeyResult = RouteResponse<typeof validateKeyRoute>;

/** Asks the server whether a key is valid and what role it has. Silent: callers word the error. */
export const validateKey = (key: string) =>
  apiFetch(validateKeyRoute, { body: { key }, silent: true });

export const useValidateKey = (
  options?: Omit<UseMutationOptions<ValidateKeyResult, ApiError, string>, "mutationFn">,
) => useMutation({ ...options, mutationFn: validateKey });
