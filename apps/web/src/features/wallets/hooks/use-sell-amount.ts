import { useCallback, useState } from "react";
import { acceptAmountInput, amountForUnit, type SellUnit } from "../utils/sell-amount.ts";

export interface SellAmountState {
  amount: string;
  unit: SellUnit;
  /** Typing: refused input (a negative, a percent above 100) leaves the amount as it was. */
  setAmount: (next: string) => void;
  setUnit: (unit: SellUnit) => void;
  /** A quick button: that percent of each wallet's balance. */
  pickPercent: (percent: number) => void;
  reset: () => void;
}

/** The amount and unit of one sell panel. */
export function useSellAmount(): SellAmountState {
  const [amount, setRawAmount] = useState("");
  const [unit, setRawUnit] = useState<SellUnit>("tokens");
  const setAmount = useCallback(
    (next: string) => {
      const accepted = acceptAmountInput(next, unit);
      if (accepted !== null) setRawAmount(accepted);
    },
    [unit],
  );
  const setUnit = useCallback((next: SellUnit) => {
    setRawUnit(next);
    setRawAmount((current) => amountForUnit(current, next));
  }, []);
  const pickPercent = useCallback((percent: number) => {
    setRawUnit("percent");
    setRawAmount(String(percent));
  }, []);
  const reset = useCallback(() => setRawAmount(""), []);
  return { amount, unit, setAmount, setUnit, pickPercent, reset };
}
