import type { SellRoute } from "@bundler/shared";
import { useState } from "react";
import { DEFAULT_SLIPPAGE, SLIPPAGE_PROBLEM, slippageBps } from "../utils/slippage.ts";

export interface SellOptionsState {
  /** The slippage field's text, a percent ("5"). */
  slippage: string;
  setSlippage: (next: string) => void;
  /** What is sent: basis points, or null while the field is not a valid percent. */
  slippageBps: number | null;
  /** Why the field is refused, or null. */
  problem: string | null;
  route: SellRoute;
  setRoute: (route: SellRoute) => void;
}

/**
 * A sell panel's floor and route: 5% slippage and a private bundle unless the user says
 * otherwise. They stay as set after a sell (the amount clears, these do not).
 */
export function useSellOptions(): SellOptionsState {
  const [slippage, setSlippage] = useState(DEFAULT_SLIPPAGE);
  const [route, setRoute] = useState<SellRoute>("bundle");
  const bps = slippageBps(slippage);
  return {
    slippage,
    setSlippage,
    slippageBps: bps,
    problem: bps === null ? SLIPPAGE_PROBLEM : null,
    route,
    setRoute,
  };
}
