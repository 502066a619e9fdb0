import { HOPS_PER_CHAIN } from "@bundler/chain";
import { bnbWords } from "@bundler/shared";
import { lastStep, shorten } from "./dispersal-route.ts";
import type { TransferRow } from "./dispersal-transfers.ts";
import type { DispersalRow } from "./disperse.repository.ts";

/** Where a dispersal's words go: `emit` to its owner's status line, `log` to the server's. */
export interface DispersalOutput {
  /** A status line for the dispersal's owner (`dispersal_status_{key}`). */
  emit: (ownerId: string, message: string) => void;
  log?: (message: string) => void;
}

/** BNB in a status line: 4 decimals (SPEC §9), as the page beside the log shows it. */
export const bnb = (wei: bigint | string) => bnbWords(BigInt(wei));

/** The line of a dispersal whose funding arrived. */
export const receivedLine = (
  d: Pick<DispersalRow, "antiBubblemaps">,
  amount: bigint | string,
  funder: string | null,
) =>
  `Received ${bnb(amount)}${funder ? ` from ${funder}` : ""}; sending to ${d.antiBubblemaps ? "every chain" : "every wallet"}...`;

/** The line of a dispersal that expired unfunded; `deposits`: some money did arrive. */
export const expiredLine = (deposits: boolean) =>
  deposits
    ? "Dispersal expired before it was fully funded; what arrived is being refunded"
    : "Dispersal expired before it was funded";

/** The last line of a funded dispersal: how it ended, and what went back to its funder. */
export function outcomeLine(
  d: Pick<DispersalRow, "antiBubblemaps" | "funder">,
  status: "completed" | "partial" | "failed",
  delivered: number,
  legs: number,
  returned: bigint,
): string {
  const unit = d.antiBubblemaps ? "chains" : "wallets";
  const back = returned > 0n ? `; ${bnb(returned)} went back to the funder ${d.funder}` : "";
  return status === "completed"
    ? `Dispersal completed: ${delivered}/${legs} ${unit} delivered`
    : status === "partial"
      ? `Dispersal partially completed: ${delivered}/${legs} ${unit} delivered${back}`
      : `Dispersal failed: nothing could be delivered${back}`;
}

/** The status line for a mined transfer; every line names its full transaction hash. */
export function describe(d: DispersalRow, t: TransferRow, ok: boolean): string {
  const chain = `Chain ${(t.leg ?? 0) + 1}`;
  const value = bnb(t.value);
  if (t.kind === "refund")
    return ok
      ? `Refunded ${value} to ${t.to}: ${t.reason} (tx ${t.txHash})`
      : `Refund of ${value} to ${t.to} failed: ${t.error} (tx ${t.txHash})`;
  if (t.kind === "return")
    return ok
      ? `${chain}: returned ${value} to the funder ${t.to} (tx ${t.txHash})`
      : `${chain}: returning ${value} to ${t.to} failed: ${t.error} (tx ${t.txHash})`;
  if (!ok)
    return `${chain}: the transfer to ${t.to} failed: ${t.error}; its BNB go back to the funder (tx ${t.txHash})`;
  const step = t.step ?? 0;
  if (step === lastStep(d.antiBubblemaps))
    return d.antiBubblemaps
      ? `${chain}: delivered ${value} to ${t.to} (tx ${t.txHash})`
      : `Sent ${value} to ${t.to} (tx ${t.txHash})`;
  if (step === 0) return `${chain}: funded its first wallet ${shorten(t.to)} (tx ${t.txHash})`;
  return `${chain}: hop ${step}/${HOPS_PER_CHAIN} to ${shorten(t.to)} (tx ${t.txHash})`;
}
