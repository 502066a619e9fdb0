import { bnbPriceRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { msToNextMinute } from "../utils/countdown.ts";
import { DEFAULT_BNB_PRICE_USD } from "../utils/timings.ts";

/** The BNB price in USD. Silent: without it the page uses 600 (SPEC §3). */
export const getBnbPrice = (signal?: AbortSignal) =>
  apiFetch(bnbPriceRoute, { signal, silent: true });

export const getBnbPriceQueryOptions = () =>
  queryOptions({
    // Its own domain (the contract's price.ts): bumper actions, which refetch every
    // ["bumper", …] query, leave the price to its once-a-minute read.
    queryKey: ["price", "bnb"] as const,
    queryFn: ({ signal }) => getBnbPrice(signal),
  });

/** The price, read again at the start of every minute (SPEC §4: "in the first 10 s of a minute"). */
export const useBnbPrice = (): number => {
  const query = useQuery({
    ...getBnbPriceQueryOptions(),
    refetchInterval: () => msToNextMinute(Date.now()),
  });
  return query.data?.price ?? DEFAULT_BNB_PRICE_USD;
};
