import { rpcBatch } from "@bundler/chain";
import type { Address, LocalAccount } from "viem";
import { isFinal, type TxRow } from "../transactions/transactions.repository.ts";
import type { TxManager } from "../transactions/tx-manager.ts";
import {
  planSignedSells,
  type SellContext,
  type SignedSell,
  submitSellBundles,
} from "./sell-bundles.ts";

export type Step = "approve" | "sell";

/**
 * A step's key: `{base}:{step}` for a request's first attempt at a wallet's sell, `{base}~{n}:
 * {step}` for the n-th after bundles that can no longer land (`base` names the owner, token,
 * wallet and request).
 */
export const sellKey = (base: string, attempt: number, step: Step): string =>
  `${base}${attempt === 0 ? "" : `~${attempt}`}:${step}`;

/** Where one wallet's sell of a request stands: the attempt to answer or to make. */
export interface SellAttempt {
  attempt: number;
  approval?: TxRow;
  /** Present when the attempt was recorded: the request answers it again. */
  sale?: TxRow;
  /**
   * A new attempt after earlier ones that can no longer land through their bundle: the keys
   * of the last one's steps, which the new ones retry (the transaction manager checks every
   * attempt before them and signs at the nonce of one that may still land).
   */
  retries?: { approve?: string; sell: string };
  /** Why no attempt may be made now (an earlier one's fate is not known yet). */
  waits?: string;
}

/** A bundle's sale that can no longer land: its window passed, or its nonce went to another. */
const ended = (row: TxRow) =>
  row.validUntilBlock !== null && (row.status === "dropped" || row.status === "replaced");

/** An open bundle row past its window: the next reconcile drops it. */
const expired = (row: TxRow, head: bigint) =>
  row.validUntilBlock !== null && !isFinal(row.status) && head > row.validUntilBlock;

/**
 * Each wallet's latest attempt at this request's sell. A request sent again answers what it
 * recorded, unless that was a bundle that can no longer land: then it sells again, as a new
 * attempt (the old one's nonces are free again, so the two can never both land). Bundle rows
 * whose window passed are dropped first (one reconcile pass), so that a retry does not wait
 * for the manager's next pass.
 */
export async function latestAttempts(
  txm: TxManager,
  bases: Map<Address, string>,
  head: () => Promise<bigint>,
): Promise<Map<Address, SellAttempt>> {
  let attempts = await readAttempts(txm, bases);
  const open = [...attempts.values()].filter(
    (a) => a.sale && a.sale.validUntilBlock !== null && !isFinal(a.sale.status),
  );
  if (open.length > 0) {
    const now = await head();
    if (open.some((a) => a.sale && expired(a.sale, now))) {
      await txm.reconcile();
      attempts = await readAttempts(txm, bases);
    }
  }
  return attempts;
}

/**
 * Each wallet's attempts at a request's sell, found by the request whatever key they were last
 * recorded under (the transaction manager answers a transaction signed again for a later key
 * under its earlier one too). The latest is answered unless it can no longer land through its
 * bundle; then a new attempt is made only once the fate of every earlier one is known: one
 * that landed after all is the request's sale (recorded mined now), and one whose nonce was
 * used only in the last blocks makes the request wait.
 */
async function readAttempts(
  txm: TxManager,
  bases: Map<Address, string>,
): Promise<Map<Address, SellAttempt>> {
  const firsts = await txm.find(
    [...bases.values()].flatMap((base) => [sellKey(base, 0, "approve"), sellKey(base, 0, "sell")]),
  );
  const byKey = new Map(firsts.map((row) => [row.key, row]));
  const attempts = new Map<Address, SellAttempt>();
  /** Wallets whose every attempt ended: their attempts' sales, first to last. */
  const over: Array<{ wallet: Address; base: string; sales: TxRow[] }> = [];
  for (const [wallet, base] of bases) {
    const first = byKey.get(sellKey(base, 0, "sell"));
    if (!first || !ended(first)) {
      attempts.set(wallet, {
        attempt: 0,
        approval: byKey.get(sellKey(base, 0, "approve")),
        sale: first,
      });
      continue;
    }
    // Rare: only after a bundle that did not land.
    const steps = new Map((await txm.byKeyPrefix(`${base}~`)).map((row) => [row.key, row]));
    for (const row of [first, byKey.get(sellKey(base, 0, "approve"))])
      if (row) steps.set(row.key, row);
    let last = 0;
    while (steps.has(sellKey(base, last + 1, "sell"))) last += 1;
    const step = (n: number, kind: Step) => steps.get(sellKey(base, n, kind));
    const sale = step(last, "sell") as TxRow;
    if (!ended(sale)) {
      attempts.set(wallet, { attempt: last, approval: step(last, "approve"), sale });
      continue;
    }
    attempts.set(wallet, {
      attempt: last + 1,
      retries: {
        sell: sellKey(base, last, "sell"),
        ...(step(last, "approve") ? { approve: sellKey(base, last, "approve") } : {}),
      },
    });
    over.push({
      wallet,
      base,
      sales: Array.from({ length: last + 1 }, (_, n) => step(n, "sell") as TxRow),
    });
  }
  if (over.length > 0) await settleEarlier(txm, over, attempts);
  return attempts;
}

/**
 * Before a new attempt: the fate of every earlier one. One that landed after all (a bundle
 * row dropped on a read that missed it, or its transaction sent on by someone after its
 * window) is the request's sale, recorded mined now; one whose nonce was used only in the
 * last blocks, or whose fate the node cannot tell, makes the wallet wait.
 */
async function settleEarlier(
  txm: TxManager,
  over: Array<{ wallet: Address; base: string; sales: TxRow[] }>,
  attempts: Map<Address, SellAttempt>,
): Promise<void> {
  const fates = await txm.fates(over.flatMap((o) => o.sales)).catch(() => null);
  let i = 0;
  for (const { wallet, base, sales } of over) {
    const own = fates?.slice(i, i + sales.length);
    i += sales.length;
    const landed = own?.indexOf("landed") ?? -1;
    if (landed >= 0) {
      await txm.adoptLanded([sales[landed] as TxRow]);
      const [approval, sale] = await txm
        .find([sellKey(base, landed, "approve"), sellKey(base, landed, "sell")])
        .then((rows) => [
          rows.find((row) => row.key === sellKey(base, landed, "approve")),
          rows.find((row) => row.key === sellKey(base, landed, "sell")),
        ]);
      attempts.set(wallet, { attempt: landed, approval, sale: sale ?? (sales[landed] as TxRow) });
    } else if (!own || own.includes("settling"))
      attempts.set(wallet, {
        attempt: 0,
        waits: !own
          ? `what became of an earlier sale of wallet ${wallet} could not be read: try again in a few blocks`
          : `the nonce of an earlier sale of wallet ${wallet} was used in the last blocks: try again in a few blocks`,
      });
  }
}

/**
 * Sends again, as bundles, the recorded sells a crash (or a lost answer) may have kept from
 * going out: bundle rows still open, in their window, with no refusal noted and no receipt.
 * One that went out already cannot land twice (its nonces are taken by the first to land);
 * a refusal now says nothing new and is not noted. Answers the bundles a builder took.
 */
export async function resubmitSells(
  context: SellContext,
  replays: Array<{ approval?: TxRow | undefined; sale: TxRow }>,
  {
    head,
    accounts,
    bnbOf,
    slippageBps,
  }: {
    head: bigint;
    accounts: (wallets: Address[]) => Promise<Map<string, LocalAccount>>;
    bnbOf: (wallet: Address) => bigint;
    slippageBps: number;
  },
): Promise<number> {
  const { chain } = context;
  const candidates = replays.filter(
    ({ sale }) =>
      sale.validUntilBlock !== null &&
      !isFinal(sale.status) &&
      !sale.error &&
      head <= sale.validUntilBlock,
  );
  if (candidates.length === 0) return 0;
  const receipts = await rpcBatch<unknown>(
    chain.rpcUrl,
    candidates.map(({ sale }) => ({ method: "eth_getTransactionReceipt", params: [sale.txHash] })),
  );
  const waiting = candidates.filter(
    (_, i) => receipts[i] && !receipts[i]?.error && !receipts[i]?.result,
  );
  if (waiting.length === 0) return 0;
  const keys = await accounts(waiting.map(({ sale }) => sale.from as Address));
  const signed = waiting.flatMap(({ approval, sale }): SignedSell[] => {
    const account = keys.get(sale.from.toLowerCase());
    if (!account) return [];
    const rows = approval ? [approval, sale] : [sale];
    const address = account.address;
    return [
      {
        address,
        account,
        bnb: bnbOf(address),
        gasCost: rows.reduce((sum, row) => sum + row.gas * BigInt(row.gasPrice), 0n),
        rows,
      },
    ];
  });
  const first = waiting[0]?.sale as TxRow;
  const { bundles } = await submitSellBundles(context, planSignedSells(chain, signed), {
    head,
    gasPrice: BigInt(first.gasPrice),
    slippageBps,
    maxBlockNumber: first.validUntilBlock as bigint,
    noteRefusals: false,
  });
  return bundles;
}
