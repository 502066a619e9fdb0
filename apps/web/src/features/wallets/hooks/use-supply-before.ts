import { useCallback, useState } from "react";
import type { SupplySnapshot } from "../utils/supply-shares.ts";

/**
 * The shares of supply as they stood when the last sell was sent, so the chart can show them
 * beside the shares after it. Null until the first sell on this page.
 */
export function useSupplyBefore() {
  const [before, setBefore] = useState<SupplySnapshot | null>(null);
  const capture = useCallback((snapshot: SupplySnapshot | null) => {
    if (snapshot) setBefore(snapshot);
  }, []);
  return { before, capture } as const;
}
