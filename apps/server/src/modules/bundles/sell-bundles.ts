import { type PreparedSell, rpcBatch, submitBundle, TRANSFER_GAS } from "@bundler/chain";
import type { Address, Hex, LocalAccount } from "viem";
import { bundleWindowBlocks } from "../../lib/bundle-window.ts";
import type { ChainContext } from "../../lib/chain-context.ts";
import { failpoint } from "../../lib/failpoints.ts";
import type { BuilderSends } from "../builders/builders.service.ts";
import type { OpenTx, TxRow } from "../transactions/transactions.repository.ts";
import type { BusyGuard, TxIntent, TxManager } from "../transactions/tx-manager.ts";
import { refusalWords, type SaleFloor, tipShortfallWords } from "./sell-words.ts";

/** One wallet's sell as it goes into a bundle: its approval (when it needs one), then its sale. */
export interface BundledSell {
  sell: PreparedSell;
  account: LocalAccount;
  /** The wallet's BNB now: pays its gas, and the tip when it is its bundle's payer. */
  bnb: bigint;
  /** The approval's (when any) and the sale's, in that order, with their keys. */
  intents: TxIntent[];
}

/** One wallet's recorded transactions as a bundle holds them (approval first, sale last). */
export interface SignedSell {
  address: Address;
  account: LocalAccount;
  bnb: bigint;
  /** BNB its own transactions may cost in gas. */
  gasCost: bigint;
  rows: TxRow[];
  /** The sale's floor as this request priced it (for the words of a refusal). */
  floor?: SaleFloor;
}

/** What sell bundles go through: the chain, the transaction manager, the tip, the record. */
export interface SellContext {
  chain: ChainContext;
  txm: TxManager;
  tip: bigint;
  /** Where each bundle's builder answers are recorded. */
  sends?: BuilderSends | undefined;
}

export interface SellBundlesResult {
  /** Every intent's row (recorded now or by an earlier identical request), by key. */
  rows: Map<string, TxRow>;
  /** Wallets with another request's transaction in flight: nothing recorded for them. */
  busy: Map<Address, OpenTx>;
  /** Wallets whose sells no builder took, with why (their rows drop once the window passes). */
  failed: Map<Address, string>;
  /** Bundles a builder took. */
  bundles: number;
}

/**
 * Splits sells, in landing order, into bundles of at most `cap` transactions with a tip each:
 * a wallet's approval and sale (`sizeOf` transactions) stay in one bundle.
 */
export const planSellBundles = <S>(sells: S[], cap: number, sizeOf: (sell: S) => number): S[][] => {
  const bundles: S[][] = [];
  let size = cap;
  for (const sell of sells) {
    if (size + sizeOf(sell) + 1 > cap) {
      bundles.push([]);
      size = 0;
    }
    bundles.at(-1)?.push(sell);
    size += sizeOf(sell);
  }
  return bundles;
};

const largestCap = (chain: ChainContext) => Math.max(...chain.builders.map((b) => b.maxTxs));

/**
 * Sends sells privately, as bundles through the submitter the launch uses: split over the
 * builders' cap (each bundle for the next block, in landing order), each bundle's tip paid
 * by its first wallet that can afford it on top of its own gas (a cost of that wallet's
 * sale), every transaction recorded by the transaction manager before any is submitted.
 * A bundle lands whole or not at all; one no builder took is said in words, and its
 * transactions drop with that reason once the chain passes their window.
 */
export async function sendSellBundles(
  context: SellContext,
  sells: BundledSell[],
  { guard, gasPrice, slippageBps }: { guard: BusyGuard; gasPrice: bigint; slippageBps: number },
): Promise<SellBundlesResult> {
  const { chain, txm, tip } = context;
  const result: SellBundlesResult = {
    rows: new Map(),
    busy: new Map(),
    failed: new Map(),
    bundles: 0,
  };
  if (sells.length === 0) return result;
  const tipCost = tip + TRANSFER_GAS * gasPrice;
  const planned = planSellBundles(sells, largestCap(chain), (s) => s.intents.length).filter(
    (bundle) => {
      if (bundle.some((s) => s.bnb >= s.sell.gasCost + tipCost)) return true;
      const first = bundle[0] as BundledSell;
      const words = tipShortfallWords(
        first.sell.address,
        first.sell.gasCost + tipCost - first.bnb,
        tip,
      );
      for (const s of bundle) result.failed.set(s.sell.address, words);
      return false;
    },
  );
  if (planned.length === 0) return result;

  const head = await chain.client.getBlockNumber();
  // The bundle window's blocks after the head, and one more for each bundle after the first
  // (each lands in a block of its own).
  const maxBlockNumber = head + BigInt(planned.length - 1) + (await bundleWindowBlocks(chain));
  const recorded = await txm.recordBundleUnlessBusy(
    planned.flat().flatMap((s) => s.intents),
    guard,
    maxBlockNumber,
  );
  for (const row of recorded.rows) result.rows.set(row.key, row);
  result.busy = recorded.busy;
  const created = new Map(recorded.created.map((row) => [row.key, row]));
  // Only what this call recorded: an identical request that recorded the rest submits it.
  const signed = planned.map((bundle) =>
    bundle
      .filter((s) => s.intents.every((i) => created.has(i.key)))
      .map(
        (s): SignedSell => ({
          address: s.sell.address,
          account: s.account,
          bnb: s.bnb,
          gasCost: s.sell.gasCost,
          rows: s.intents.map((i) => created.get(i.key) as TxRow),
          floor: { wallet: s.sell.address, expected: s.sell.quote.amountOut, floor: s.sell.minOut },
        }),
      ),
  );
  const submitted = await submitSellBundles(
    context,
    signed.filter((bundle) => bundle.length > 0),
    { head, gasPrice, slippageBps, maxBlockNumber, noteRefusals: true },
  );
  // A crash here: the bundles went out and the caller never heard. The same request again
  // answers them (or, once they can no longer land, sells as a new attempt).
  await failpoint("sell.submitted");
  for (const [wallet, reason] of submitted.failed) result.failed.set(wallet, reason);
  result.bundles = submitted.bundles;
  return result;
}

/**
 * Submits recorded sells, bundle by bundle in landing order (`submitBundle`, to every builder
 * whose cap the bundle fits), each with its tip. A bundle no builder took fails its wallets
 * with every builder's answer; with `noteRefusals` the reason is noted on its transactions
 * too, for their drop to give. Answers the wallets that failed and the bundles taken.
 */
export async function submitSellBundles(
  { chain, txm, tip, sends }: SellContext,
  bundles: SignedSell[][],
  {
    head,
    gasPrice,
    slippageBps,
    maxBlockNumber,
    noteRefusals,
  }: {
    /** The head read before the bundles' window was set (the builders' statistics). */
    head?: bigint;
    gasPrice: bigint;
    slippageBps: number;
    maxBlockNumber: bigint;
    noteRefusals: boolean;
  },
): Promise<{ failed: Map<Address, string>; bundles: number }> {
  const failed = new Map<Address, string>();
  let taken = 0;
  const tipCost = tip + TRANSFER_GAS * gasPrice;
  for (const bundle of bundles) {
    const fail = async (reason: string) => {
      if (noteRefusals)
        await txm.noteBundleRefusal(
          bundle.flatMap((s) => s.rows.map((row) => row.key)),
          reason,
        );
      for (const s of bundle) failed.set(s.address, reason);
    };
    const payer = bundle.find((s) => s.bnb >= s.gasCost + tipCost);
    if (!payer) {
      const first = bundle[0] as SignedSell;
      await fail(tipShortfallWords(first.address, first.gasCost + tipCost - first.bnb, tip));
      continue;
    }
    const rows = bundle.flatMap((s) => s.rows);
    const floors = new Map(
      bundle.flatMap((s) => {
        const sale = s.rows.at(-1);
        return sale && s.floor ? [[sale.txHash.toLowerCase(), s.floor] as const] : [];
      }),
    );
    try {
      await submitBundle({
        builders: chain.builders.filter((b) => b.maxTxs >= rows.length + 1),
        txs: rows.map((row) => row.rawTx as Hex),
        roles: rows.map((row) =>
          row.purpose === "bundle-approve"
            ? `the approval by wallet ${row.from}`
            : `the sale by wallet ${row.from}`,
        ),
        tip: {
          account: payer.account,
          value: tip,
          nonce: Math.max(...payer.rows.map((row) => row.nonce)) + 1,
          gasPrice,
          chainId: chain.chainId,
        },
        maxBlockNumber,
        ...(chain.bundleTimeoutMs ? { timeoutMs: chain.bundleTimeoutMs } : {}),
        ...(sends ? { onAnswers: sends.recorder(sellSend(rows, head, maxBlockNumber)) } : {}),
      });
      taken += 1;
    } catch (error) {
      // Refused because it is in a block already (an identical request sent it meanwhile).
      if (await landed(chain, rows)) continue;
      await fail(refusalWords(error, (hash) => floors.get(hash), slippageBps));
    }
  }
  return { failed, bundles: taken };
}

/** A sell bundle as the builders' statistics keep it: an auto-sell wave's by its request id. */
const sellSend = (rows: TxRow[], head: bigint | undefined, maxBlockNumber: bigint) => {
  const first = rows[0];
  return {
    ownerId: first?.ownerId ?? null,
    kind: rows.some((row) => row.key.includes(":r:autosell:"))
      ? ("autosell" as const)
      : ("sell" as const),
    subject: first?.subject ?? null,
    ...(head !== undefined ? { head } : {}),
    maxBlockNumber,
  };
};

/** Whether every one of `rows` has a receipt (one batched read). */
const landed = async (chain: ChainContext, rows: TxRow[]): Promise<boolean> => {
  const receipts = await rpcBatch<unknown>(
    chain.rpcUrl,
    rows.map((row) => ({ method: "eth_getTransactionReceipt", params: [row.txHash] })),
  ).catch(() => []);
  return receipts.length === rows.length && receipts.every((r) => Boolean(r.result));
};

/** `planSellBundles` for sells already recorded (sent again after a crash cut them off). */
export const planSignedSells = (chain: ChainContext, sells: SignedSell[]): SignedSell[][] =>
  planSellBundles(sells, largestCap(chain), (s) => s.rows.length);
