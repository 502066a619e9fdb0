const USD = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/**
 * A USD amount with its unit, cents always shown.
 *
 * @example
 * formatUsd(3.4) // "$3.40"
 */
export const formatUsd = (value: number): string => USD.format(value);
