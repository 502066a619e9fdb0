import { rpcBatch } from "@bundler/chain";
import type { PnlRole } from "@bundler/shared";
import { type Address, type Hex, toHex } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";
import { ChainCursors } from "../../lib/chain-cursors.ts";
import type { NewLedgerRow, PendingWork, PnlBundle, PnlRepository } from "./pnl.repository.ts";
import { bundleWorth, type ViewedBundles } from "./pnl-exit.ts";
import {
  addressesOf,
  GAS_LINE,
  higherOf,
  holdersOf,
  type LineContext,
  linesOfReceipt,
  lowerOf,
  openingLine,
  roleOf,
  VALUE_LINE,
} from "./pnl-lines.ts";

/** The pass's cursor: the lowest block it still looks at for new launches and transactions. */
export const PNL_CURSOR = "pnl-ledger";
/**
 * How far behind the head the pass keeps looking: a transaction is recorded mined a few
 * blocks after its block (its confirmations), and a launch after its bundle landed.
 */
const LOOK_BACK = 200n;
/** The cursor is written when it moved this far (or after work), not on every idle block. */
const SAVE_EVERY = 1000n;

type TxWork = Extract<PendingWork, { type: "tx" }>;
type FundingWork = Extract<PendingWork, { type: "funding" }>;

/**
 * Appends to each launched bundle's P&L ledger what the chain says, on each block: a launch's
 * opening (every wallet's balance before it, the create's fee and buys, the tips, the launch
 * fee and the dispersal that funded the wallets), then every final transaction the app sent
 * for the bundle (its receipt's gas, the launchpad's TokenPurchase / TokenSale events for the
 * bundle's wallets, an empty's value), with the exit value at that block. Idle, a pass is one
 * query: the launches and transactions not in the ledger yet.
 */
export class PnlLedger {
  private from: bigint | undefined;
  private saved: bigint | undefined;
  private readonly cursors: ChainCursors;

  constructor(
    private readonly repo: PnlRepository,
    private readonly chain: ChainContext,
    private readonly log: (message: string) => void = () => {},
    private readonly viewed?: ViewedBundles,
  ) {
    this.cursors = new ChainCursors(repo.db);
  }

  /** One pass; answers how many lines it appended. */
  async pass(): Promise<number> {
    if (!this.chain.launchpad) return 0;
    // The worth of the bundles whose P&L pages are open, for the new block (none: no read).
    if (this.viewed?.size)
      await this.viewed.warm(this.chain, await this.chain.client.getBlockNumber());
    if (this.from === undefined) {
      this.from = (await this.cursors.get(PNL_CURSOR)) ?? 0n;
      this.saved = this.from;
    }
    const work = await this.repo.pending(this.from);
    const failedAt: bigint[] = [];
    let appended = 0;
    const byToken = new Map<string, PendingWork[]>();
    for (const item of work) byToken.set(item.token, [...(byToken.get(item.token) ?? []), item]);
    for (const [token, items] of byToken) {
      try {
        appended += await this.appendBundle(token, items);
      } catch (error) {
        failedAt.push(
          items.reduce((m, i) => lowerOf(m, i.blockNumber), items[0]?.blockNumber ?? 0n),
        );
        this.log(`pnl: the ledger of ${token} waits: ${(error as Error).message}`);
      }
    }
    await this.advance(failedAt, work.length > 0);
    return appended;
  }

  private async advance(failedAt: bigint[], worked: boolean) {
    const head = (await this.chain.reads.head()).number;
    let next = head > LOOK_BACK ? head - LOOK_BACK : 0n;
    for (const block of failedAt) if (block < next) next = block;
    if (this.from !== undefined && next < this.from) next = this.from;
    this.from = next;
    if ((worked && next !== this.saved) || next - (this.saved ?? 0n) >= SAVE_EVERY) {
      await this.cursors.set(PNL_CURSOR, next);
      this.saved = next;
    }
  }

  private async appendBundle(token: string, items: PendingWork[]): Promise<number> {
    const bundle = await this.repo.bundle(token);
    if (!bundle) return 0;
    const times = new BlockTimes(this.chain);
    const rows: NewLedgerRow[] = [];
    if (items.some((i) => i.type === "launch")) rows.push(...(await this.opening(bundle, times)));
    const txs = items.filter((i): i is TxWork => i.type === "tx");
    const receipts = await Promise.all(
      txs.map((t) => this.chain.client.getTransactionReceipt({ hash: t.txHash as Hex })),
    );
    for (const [i, receipt] of receipts.entries()) {
      const t = txs[i] as TxWork;
      const context = await this.context(bundle, times, receipt.blockNumber);
      rows.push(...linesOfReceipt(receipt, context, { purpose: t.purpose, value: t.value }));
    }
    // A bundle's tip is no record of the transaction manager's: it is in the bundle's block, a
    // transfer to a builder's tip address. A sell bundle's is paid by one of its wallets (its
    // own cost), a launch's later bundle's by the launch's tip payer (a shared line).
    const tipBlocks = new Map<bigint, PnlRole | undefined>();
    for (const [i, receipt] of receipts.entries()) {
      const purpose = txs[i]?.purpose;
      if (purpose === "launch") tipBlocks.set(receipt.blockNumber, "tip-payer");
      else if (purpose === "bundle-sell" && !tipBlocks.has(receipt.blockNumber))
        tipBlocks.set(receipt.blockNumber, undefined);
    }
    for (const [blockNumber, tipRole] of tipBlocks)
      rows.push(
        ...(await this.blockLines(bundle, times, blockNumber, {
          tipsOnly: true,
          ...(tipRole ? { tipRole } : {}),
        })),
      );
    // BNB the owner's dispersal moved to a wallet after the launch: the wallet's own money in
    // (not a cost, not proceeds; the drift counts it), and what moving it cost.
    const fundings = items.filter((i): i is FundingWork => i.type === "funding");
    for (const f of fundings)
      rows.push({
        token: bundle.token,
        txHash: f.txHash.toLowerCase(),
        logIndex: VALUE_LINE,
        kind: "funding",
        wallet: f.to,
        role: roleOf(bundle, f.to),
        bnb: f.value.toString(),
        blockNumber: f.blockNumber,
        blockTime: await times.of(f.blockNumber),
      });
    if (fundings.length > 0)
      rows.push(
        ...(await this.dispersalCosts(bundle, [...new Set(fundings.map((f) => f.to))], times)),
      );
    if (rows.length === 0) return 0;
    const last = rows.reduce((m, r) => higherOf(m, r.blockNumber), 0n);
    const worth = await bundleWorth(
      this.chain,
      bundle.token,
      holdersOf(bundle).map((h) => h.address),
    ).catch(() => null);
    await this.repo.append(
      rows,
      worth ? { token: bundle.token, blockNumber: last, exitWei: worth.exitTotal } : undefined,
    );
    return rows.length;
  }

  /**
   * A launch's first lines: each address's balance before the launch block, every transaction
   * of the bundle's addresses in the launch's blocks (the create with its fee and the creator's
   * buy, the buys, the tips: a transfer by the tip payer to anyone but the launchpad), the
   * launch fee the draft paid and the gas of the dispersal hops that funded its wallets.
   */
  private async opening(bundle: PnlBundle, times: BlockTimes): Promise<NewLedgerRow[]> {
    const blocks = [
      ...new Set([bundle.launchBlock, ...(await this.repo.launchBlocks(bundle.draftId))]),
    ];
    const rows: NewLedgerRow[] = [];
    for (const blockNumber of blocks)
      rows.push(
        ...(await this.blockLines(bundle, times, blockNumber, {
          tipsOnly: false,
          tipRole: "tip-payer",
        })),
      );
    const before = bundle.launchBlock - 1n;
    const time = await times.of(bundle.launchBlock);
    const addresses = addressesOf(bundle);
    const balances = await rpcBatch<Hex>(
      this.chain.rpcUrl,
      addresses.map((a) => ({ method: "eth_getBalance", params: [a, toHex(before)] })),
    );
    for (const [i, answer] of balances.entries()) {
      if (answer.error || answer.result === undefined)
        throw new Error(`the balance before the launch: ${answer.error?.message ?? "no answer"}`);
      rows.push(openingLine(bundle, addresses[i] as string, BigInt(answer.result), before, time));
    }
    const fee = await this.repo.launchFee(bundle.draftId);
    if (fee)
      rows.push({
        token: bundle.token,
        txHash: fee.txHash.toLowerCase(),
        logIndex: VALUE_LINE,
        kind: "launch-fee",
        wallet: fee.from,
        role: "platform",
        bnb: fee.amount.toString(),
        blockNumber: fee.blockNumber,
        blockTime: fee.blockTime,
      });
    rows.push(...(await this.dispersalCosts(bundle, addresses, times)));
    return rows;
  }

  /**
   * The gas of the owner's dispersal transfers along legs that ended at `addresses` (a line
   * already in the ledger is not written twice).
   */
  private async dispersalCosts(
    bundle: PnlBundle,
    addresses: string[],
    times: BlockTimes,
  ): Promise<NewLedgerRow[]> {
    const rows: NewLedgerRow[] = [];
    for (const hop of await this.repo.dispersalHops(bundle.ownerId, addresses))
      rows.push({
        token: bundle.token,
        txHash: hop.txHash.toLowerCase(),
        logIndex: GAS_LINE,
        kind: "dispersal-cost",
        wallet: hop.from,
        role: "dispersal",
        bnb: hop.fee.toString(),
        blockNumber: hop.blockNumber,
        blockTime: await times.of(hop.blockNumber),
      });
    return rows;
  }

  /**
   * The lines of the bundle's addresses' transactions in one block: all of them (a launch's
   * block: the create, the buys, the tip) or only the tips (a transfer to a builder's tip
   * address; in a launch's block also the tip payer's transfer to anyone but the launchpad).
   * A tip's lines take `tipRole`, or its payer's own role.
   */
  private async blockLines(
    bundle: PnlBundle,
    times: BlockTimes,
    blockNumber: bigint,
    { tipsOnly, tipRole }: { tipsOnly: boolean; tipRole?: PnlRole },
  ): Promise<NewLedgerRow[]> {
    const own = new Set(addressesOf(bundle));
    const launchpad = (this.chain.launchpad as Address).toLowerCase();
    const tipAddresses = new Set(this.chain.builders.map((b) => b.tipAddress.toLowerCase()));
    const block = await this.chain.client.getBlock({ blockNumber, includeTransactions: true });
    times.keep(blockNumber, block.timestamp);
    const ours = block.transactions.flatMap((tx) => {
      const from = tx.from.toLowerCase();
      const to = tx.to?.toLowerCase() ?? "";
      if (!own.has(from)) return [];
      const launchTip =
        !tipsOnly && from === bundle.tipPayer && to !== launchpad && !own.has(to) && tx.value > 0n;
      const tip = tipAddresses.has(to) || launchTip;
      if (tipsOnly && !tip) return [];
      const role: PnlRole | undefined = tip ? (tipRole ?? roleOf(bundle, from)) : undefined;
      return [{ tx, tip: role }];
    });
    const receipts = await Promise.all(
      ours.map(({ tx }) => this.chain.client.getTransactionReceipt({ hash: tx.hash })),
    );
    const context = await this.context(bundle, times, blockNumber);
    return receipts.flatMap((receipt, i) => {
      const entry = ours[i];
      if (!entry) return [];
      return linesOfReceipt(receipt, context, {
        value: entry.tx.value,
        ...(entry.tip ? { tip: entry.tip } : {}),
      });
    });
  }

  private async context(
    bundle: PnlBundle,
    times: BlockTimes,
    blockNumber: bigint,
  ): Promise<LineContext> {
    return {
      bundle,
      launchpad: this.chain.launchpad as Address,
      weth: this.chain.trade?.weth ?? null,
      blockTime: await times.of(blockNumber),
    };
  }
}

/** Block times, each read once per pass. */
class BlockTimes {
  private readonly known = new Map<bigint, Date>();
  constructor(private readonly chain: ChainContext) {}

  keep(blockNumber: bigint, timestamp: bigint) {
    this.known.set(blockNumber, new Date(Number(timestamp) * 1000));
  }

  async of(blockNumber: bigint): Promise<Date> {
    const known = this.known.get(blockNumber);
    if (known) return known;
    const block = await this.chain.client.getBlock({ blockNumber });
    this.keep(blockNumber, block.timestamp);
    return this.known.get(blockNumber) as Date;
  }
}
