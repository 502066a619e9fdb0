import { type AutosellFiring, plural, type TxStatusEntry } from "@bundler/shared";
import { formatBnb, toWei } from "../../../lib/bnb.ts";
import { formatTokens } from "./token-amount.ts";

export interface FiringOutcome {
  /** "landed in block 43: sold 2,000.0000 tokens for 0.0301 BNB", "failed: why", "selling". */
  text: string;
  /** Whether it ended short of what it was to do (said in the warning colour). */
  bad: boolean;
  /** The blocks its transactions landed in, lowest first. */
  blocks: string[];
}

/**
 * What a firing came to: while it sells, "selling"; once every wave is sent, where its sales
 * stand (their statuses, `statuses` by lowercased hash): the block(s) they landed in, what they
 * sold and fetched in all, and which failed and why; a failed or stopped firing says why.
 */
export function firingOutcome(
  firing: AutosellFiring,
  statuses: ReadonlyMap<string, TxStatusEntry> | undefined,
): FiringOutcome {
  const entries = firing.transactions.flatMap((hash) => {
    const entry = statuses?.get(hash.toLowerCase());
    return entry ? [entry] : [];
  });
  const blocks = [...new Set(entries.flatMap((e) => (e.blockNumber ? [e.blockNumber] : [])))].sort(
    (a, b) => (BigInt(a) < BigInt(b) ? -1 : 1),
  );
  if (firing.state === "selling") return { text: "selling", bad: false, blocks };
  if (firing.state !== "sent")
    return {
      text: `${firing.state}${firing.error ? `: ${firing.error}` : ""}`,
      bad: true,
      blocks,
    };
  if (entries.length < firing.transactions.length) return { text: "sent", bad: false, blocks };
  if (entries.some((e) => e.status === "pending"))
    return { text: "sent, waiting for its block", bad: false, blocks };

  const failed = entries.filter((e) => e.status === "failed" || e.status === "error");
  let tokens = 0n;
  let bnb = 0n;
  for (const entry of entries) {
    if (!entry.sale) continue;
    tokens += BigInt(entry.sale.tokens);
    bnb += toWei(entry.sale.bnb) ?? 0n;
  }
  const where = blocks.length === 1 ? `block ${blocks[0]}` : `blocks ${blocks.join(", ")}`;
  const landed =
    tokens > 0n
      ? `landed in ${where}: sold ${formatTokens(tokens)} tokens for ${formatBnb(bnb)} BNB`
      : null;
  const why = failed[0]?.reason ? `: ${failed[0].reason}` : "";
  if (failed.length === 0) return { text: landed ?? `landed in ${where}`, bad: false, blocks };
  if (!landed) return { text: `failed${why}`, bad: true, blocks };
  return {
    text: `${landed}; ${failed.length} of ${plural(entries.length, "transaction")} failed${why}`,
    bad: true,
    blocks,
  };
}
