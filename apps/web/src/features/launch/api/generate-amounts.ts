import { generateAmountsRoute } from "@bundler/shared";
import { useMutation } from "@tanstack/react-query";
import { apiFetch, type RouteBody } from "../../../lib/api-client.ts";

export type GenerateAmountsInput = RouteBody<typeof generateAmountsRoute>;

/**
 * A random buy value within [min, max] per wallet, with the curve's quote for each (after the
 * creator's buy, the sniper last), and what the bundle does to the curve. Silent: the caller
 * toasts a failure.
 */
export const generateAmounts = async (body: GenerateAmountsInput) => {
  const { bnbAmounts, curve } = await apiFetch(generateAmountsRoute, { body, silent: true });
  return { amounts: bnbAmounts, curve };
};

export const useGenerateAmounts = () => useMutation({ mutationFn: generateAmounts });
