import { generateAmountsRoute } from "@bundler/shared";
import { useMutation } from "@tanstack/react-query";
import { apiFetch, type RouteBody } from "../../../lib/api-client.ts";

export type GenerateAmountsInput = RouteBody<typeof generateAmountsRoute>;

/** A random buy value within [min, max] per wallet, with the curve's quote for each. */
export const generateAmounts = async (body: GenerateAmountsInput) =>
  (await apiFetch(generateAmountsRoute, { body })).bnbAmounts;

export const useGenerateAmounts = () => useMutation({ mutationFn: generateAmounts });
