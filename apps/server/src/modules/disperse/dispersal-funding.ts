import { getBalances } from "@bundler/chain";
import type { Address } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";
import { ChainCursors } from "../../lib/chain-cursors.ts";
import { applyCredit, type Credit, creditOf, keptPart } from "../../lib/deposit-credit.ts";
import { groupBy } from "../../lib/group-by.ts";
import { type IncomingTransfer, scanNewTransfers } from "../../lib/incoming-transfers.ts";
import { type DispersalOutput, expiredLine, receivedLine } from "./dispersal-words.ts";
import type { DepositRow, DispersalRow, DisperseRepository } from "./disperse.repository.ts";

const CURSOR = "dispersals";

/**
 * The deposits into dispersals' receivers (one batched block read) and what they fund: a
 * dispersal waiting for funding is funded or expires (one multicall for their balances).
 */
export class DispersalFunding {
  private readonly cursors: ChainCursors;

  constructor(
    private readonly repo: DisperseRepository,
    private readonly chain: ChainContext,
    private readonly output: DispersalOutput,
  ) {
    this.cursors = new ChainCursors(repo.db);
  }

  /**
   * Records the deposits in the blocks not yet scanned, then funds or expires the dispersals
   * waiting for funding. Answers the dispersals still open and their deposits (null: none).
   */
  async check() {
    const head = await this.chain.client.getBlockNumber();
    const scanned = await this.scanDeposits(head);
    const active = await this.repo.active();
    if (active.length === 0) return null;
    const deposits = groupBy(
      await this.repo.deposits(active.map((d) => d.id)),
      (r) => r.dispersalId,
    );
    const pending = active.filter((d) => d.status === "pending");
    if (pending.length > 0) {
      // At the head itself: a funding knows which blocks' deposits its balance already held.
      const balances = await getBalances(this.chain.client, {
        addresses: pending.map((d) => d.receiver as Address),
        blockNumber: head,
      });
      for (const [i, d] of pending.entries())
        await this.checkFunding(d, balances[i]?.bnb ?? 0n, deposits.get(d.id) ?? [], {
          head,
          scanned,
        });
    }
    return { active, deposits };
  }

  /** Records the transfers into receivers in the blocks not yet scanned. */
  private async scanDeposits(head: bigint): Promise<bigint> {
    const scanner = { cursors: this.cursors, name: CURSOR, rpcUrl: this.chain.rpcUrl };
    const targets = (await this.repo.scanSet()).map((t) => ({ ...t, address: t.receiver }));
    return scanNewTransfers(scanner, targets, head, async (target, transfer) => {
      const d = await this.repo.byId(target.id);
      if (!d) return;
      const earlier = await this.repo.deposits([d.id]);
      if (earlier.some((r) => r.txHash === transfer.hash)) return;
      await this.repo.insertDeposit(this.depositRow(d, transfer, earlier));
    });
  }

  /** What of a deposit the dispersal keeps: the part that completes its amount, in time. */
  private depositRow(d: DispersalRow, transfer: IncomingTransfer, earlier: DepositRow[]) {
    const late =
      transfer.blockTime.getTime() > d.expiresAt.getTime() + 1000 ||
      (d.status === "cancelled" && d.closedAt !== null && transfer.blockTime > d.closedAt);
    const keep = keptPart({
      amount: BigInt(d.amount),
      earlier,
      value: transfer.value,
      late,
      blockNumber: transfer.blockNumber,
      creditedAt: d.fundedBlock,
    });
    return {
      txHash: transfer.hash,
      dispersalId: d.id,
      from: transfer.from,
      value: transfer.value.toString(),
      blockNumber: transfer.blockNumber,
      blockTime: transfer.blockTime,
      refundable: (transfer.value - keep).toString(),
    };
  }

  /** Who paid most of what the funding keeps; null when the balance alone funded it. */
  private funderOf(deposits: DepositRow[], credit: Credit): string | null {
    const refundable = new Map(credit.refundable.map((r) => [r.txHash, r.refundable]));
    let funder: string | null = null;
    let most = 0n;
    for (const r of deposits) {
      const kept = BigInt(r.value) - BigInt(refundable.get(r.txHash) ?? r.refundable);
      if (kept > most) [funder, most] = [r.from, kept];
    }
    return funder;
  }

  /**
   * pending → sending when paid in time (the funder is who paid most), or → expired. As with a
   * payment, money the balance shows before the window closes counts as in time even when the
   * block scan found no transfer for it: a contract's internal transfer (an exchange's batch
   * payout) is not a transaction of the block. Such money has no sender we know, so it has no
   * funder: what cannot be delivered then stays in a wallet whose key is stored.
   */
  private async checkFunding(
    d: DispersalRow,
    balance: bigint,
    deposits: DepositRow[],
    { head, scanned }: { head: bigint; scanned: bigint },
  ): Promise<void> {
    const amount = BigInt(d.amount);
    const credit = creditOf({
      amount,
      deposits,
      balance,
      head,
      scanned,
      windowOpen: Date.now() <= d.expiresAt.getTime(),
    });
    if (credit) {
      const funder = this.funderOf(deposits, credit);
      if (await this.repo.fund(d.id, credit, funder)) {
        applyCredit(deposits, credit);
        d.status = "sending";
        d.funder = funder;
        this.output.emit(d.ownerId, receivedLine(d, amount, funder));
      }
      return;
    }
    const fullyScanned = scanned > head;
    // Expire only once every block up to the head has been scanned: a payment made in time counts.
    if (Date.now() > d.expiresAt.getTime() && fullyScanned) {
      if (await this.repo.transition(d.id, ["pending"], "expired", { closedAt: new Date() })) {
        d.status = "expired";
        this.output.emit(d.ownerId, expiredLine(deposits.length > 0));
      }
    }
  }
}
