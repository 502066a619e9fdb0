import { formatEther, parseEther } from "viem";

/** A BNB decimal string as wei; anything unparsable (empty, negative, junk) counts as null. */
export function toWei(value: string | undefined | null): bigint | null {
  const text = (value ?? "").trim();
  if (!/^\d+(\.\d+)?$/.test(text)) return null;
  const [whole = "0", fraction = ""] = text.split(".");
  return parseEther(fraction ? `${whole}.${fraction.slice(0, 18)}` : whole);
}

/** Wei back to an exact decimal string (what is sent on the wire). */
export const fromWei = (wei: bigint): string => formatEther(wei);

/** Sums BNB decimal strings exactly; unparsable entries count as 0. */
export const sumBnb = (values: readonly (string | undefined)[]): string =>
  fromWei(values.reduce((total, value) => total + (toWei(value) ?? 0n), 0n));

/** Display only: 4 decimals, as the spec shows money. */
export function formatBnb(value: string | bigint | undefined | null): string {
  const wei = typeof value === "bigint" ? value : toWei(value);
  if (wei === null) return "—";
  return Number(formatEther(wei)).toFixed(4);
}
