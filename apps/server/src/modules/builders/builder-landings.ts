import { rpcBatch } from "@bundler/chain";
import type { Hex } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";
import type { BuildersRepository } from "./builders.repository.ts";

/** Sends one pass reads at most: one batched request of their tips' receipts. */
const PASS_LIMIT = 500;
/**
 * Blocks past a window before a tip without a receipt counts as not landed: a load-balanced
 * node may answer from a few blocks behind the one that holds it.
 */
export const LANDING_LAG_BLOCKS = 3n;

/**
 * Which builder's variant landed, from the chain: each open send's tip transaction is read
 * (one batched request with the head); a tip with a receipt landed in that block, through
 * that builder; one without, once the head passed the window and the margin, did not land.
 */
export class BuilderLandings {
  constructor(
    private readonly repo: BuildersRepository,
    private readonly chain: ChainContext,
  ) {}

  async pass(): Promise<void> {
    const open = await this.repo.open(PASS_LIMIT);
    if (open.length === 0) return;
    const answers = await rpcBatch<unknown>(this.chain.rpcUrl, [
      { method: "eth_blockNumber", params: [] },
      ...open.map((send) => ({ method: "eth_getTransactionReceipt", params: [send.tipHash] })),
    ]);
    const headHex = answers[0]?.result as Hex | undefined;
    if (!headHex) return;
    const head = BigInt(headHex);
    // A tip signed again the same way (a recorded sell bundle sent again) is one transaction:
    // it lands once, credited to the latest send of it.
    const landedBy = new Map<string, { id: string; block: bigint; sentAt: Date }>();
    const notLanded: string[] = [];
    for (const [i, send] of open.entries()) {
      const answer = answers[i + 1];
      if (!answer || answer.error) continue;
      const receipt = answer.result as { blockNumber?: Hex } | null | undefined;
      if (receipt?.blockNumber) {
        const earlier = landedBy.get(send.tipHash);
        if (earlier && earlier.sentAt >= send.sentAt) {
          notLanded.push(send.id);
          continue;
        }
        if (earlier) notLanded.push(earlier.id);
        landedBy.set(send.tipHash, {
          id: send.id,
          block: BigInt(receipt.blockNumber),
          sentAt: send.sentAt,
        });
      } else if (head > send.maxBlockNumber + LANDING_LAG_BLOCKS) notLanded.push(send.id);
    }
    await this.repo.resolve([...landedBy.values()], notLanded);
  }
}
