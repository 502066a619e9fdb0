import type { Bump, Bumper } from "@bundler/shared";
import { type Address, formatEther, getAddress } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";
import { bnbBalances } from "../../lib/shared-reads.ts";
import type {
  BumperRepository,
  BumperRow,
  BumpTotals,
  LiveWallet,
  ViewBump,
} from "./bumper.repository.ts";

const bnb = (wei: bigint | string | null) => formatEther(BigInt(wei ?? 0));

/** Bumper rows in the contract's shape: balances from the block cache, totals from the bumps. */
export class BumperPresenter {
  constructor(
    private readonly repo: BumperRepository,
    private readonly chain: ChainContext | undefined,
  ) {}

  async one(row: BumperRow): Promise<Bumper> {
    const [bumper] = await this.many([row]);
    return bumper as Bumper;
  }

  async many(rows: BumperRow[]): Promise<Bumper[]> {
    if (rows.length === 0) return [];
    const [live, totals] = await Promise.all([
      this.repo.liveWallets(rows.map((r) => r.id)),
      this.repo.totals(rows.map((r) => r.id)),
    ]);
    return this.with(rows, live, totals);
  }

  /** Rows to the contract's shape, given their live wallets and totals (read by the caller). */
  async with(
    rows: BumperRow[],
    live: LiveWallet[],
    totals: Map<string, BumpTotals>,
  ): Promise<Bumper[]> {
    const liveBalances = this.chain
      ? await bnbBalances(
          this.chain,
          live.map((w) => getAddress(w.address)),
        )
      : live.map(() => 0n);
    // The BNB of the current wallet and of the next while a bump moves it there.
    const balanceOf = new Map<string, bigint>();
    for (const [i, w] of live.entries())
      balanceOf.set(w.bumperId, (balanceOf.get(w.bumperId) ?? 0n) + (liveBalances[i] ?? 0n));
    const addressOf = new Map(
      live.map((w) => [`${w.bumperId}:${w.index}`, getAddress(w.address)] as const),
    );
    return rows.map((row) => ({
      id: row.id,
      targetToken: getAddress(row.targetToken),
      totalBumps: row.totalBumps,
      bumpsCompleted: row.bumpsCompleted,
      interval: Number(row.intervalMinutes),
      duration: Number(row.durationMinutes),
      buySize: bnb(row.buySize),
      balance: bnb(balanceOf.get(row.id) ?? 0n),
      active: row.status === "active",
      status: row.status,
      stopReason: row.stopReason,
      nextBumpAt: row.nextBumpAt?.toISOString() ?? null,
      lastBumpAt: row.lastBumpAt?.toISOString() ?? null,
      address: addressOf.get(`${row.id}:${row.currentWalletIndex}`) as Address,
      currentWalletIndex: row.currentWalletIndex,
      gasSpent: bnb(totals.get(row.id)?.gas ?? 0n),
      volume: bnb(totals.get(row.id)?.volume ?? 0n),
      createdAt: row.createdAt.toISOString(),
    }));
  }
}

export const presentBump = (b: ViewBump): Bump => {
  const tokens = BigInt(b.tokens ?? 0);
  const bought = BigInt(b.bought ?? 0);
  return {
    index: b.index,
    at: (b.doneAt ?? b.createdAt).toISOString(),
    block: Number(b.block ?? 0n),
    bought: bnb(bought),
    sold: bnb(b.sold),
    gas: bnb(b.gas),
    // BNB per whole token: wei per 1e18 units is the same ratio.
    price: tokens > 0n ? (Number(bought) / Number(tokens)).toPrecision(6) : "0",
    buyHash: b.buyHash ?? "",
    sellHash: b.sellHash ?? "",
  };
};
