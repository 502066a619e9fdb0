import type { Dispersal } from "@bundler/shared";
import { and, eq } from "drizzle-orm";
import { type Address, createWalletClient, type Hash, http, parseEther } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { chainTxs, dispersals, payments, users } from "../../apps/server/src/db/schema.ts";
import type { TestApp } from "../../apps/server/src/test/app.ts";
import type { TestChain } from "../../apps/server/src/test/chain.ts";
import { apiCaller, draftInput, payerOn } from "../../apps/server/src/test/drafts-api.ts";
import { contractPayerOn } from "../../apps/server/src/test/forwarder.ts";
import { publicCaller } from "../../apps/server/src/test/referral.ts";

/** What the money pays for: a draft's launch fee, a dispersal, a paid access key. */
export const KINDS = ["launch fee", "dispersal", "paid key"] as const;
export type Kind = (typeof KINDS)[number];
/** How it arrives. */
export const WAYS = [
  "late",
  "excess",
  "duplicate",
  "after cancel",
  "contract-sent",
  "contract, then plain",
] as const;
export type Way = (typeof WAYS)[number];

/** Over the amount, in the excess case. */
const EXTRA = parseEther("0.003");

/**
 * What the README promises for each way: late and after-cancel money goes back (minus the
 * refund's gas) and nothing is credited; the excess and a second payment to the same address
 * go back and the amount is credited; a contract's internal transfer made in time is credited
 * (it shows in the balance before the window closes), and a plain transfer from the same payer
 * beside it goes back in full (the contract's money counts first).
 */
export const PROMISE: Record<Way, { credited: boolean; refunds: number }> = {
  late: { credited: false, refunds: 1 },
  excess: { credited: true, refunds: 1 },
  duplicate: { credited: true, refunds: 1 },
  "after cancel": { credited: false, refunds: 1 },
  "contract-sent": { credited: true, refunds: 0 },
  "contract, then plain": { credited: true, refunds: 1 },
};

/** One payment made to one of our addresses, and how to read what became of it. */
export interface Case {
  kind: Kind;
  way: Way;
  /** The payment (or dispersal) address. */
  address: Address;
  /** What a credit takes (the fee, the key's price, the dispersal's amount). */
  amount: bigint;
  payer: Address;
  /** The payer's balance before paying, and the gas its own transactions spent. */
  start: bigint;
  ownGas: bigint;
  /** True once the money counts as paid for what it was meant for. */
  credited(): Promise<boolean>;
  /** True once nothing about it can change any more (closed, refunds and sweeps final). */
  final(): Promise<boolean>;
  /** How many times it was credited: sweeps of the payment, keys handed out, deliveries. */
  credits(): Promise<number>;
}

export interface Harness {
  app: TestApp;
  testChain: TestChain;
  forwarder: Address;
}

type Pay = (to: Address, value: bigint) => Promise<{ gas: bigint }>;

/** A plain transfer of EXTRA from `account` (beside its contract's payment); answers its gas. */
const plainTransfer = async (h: Harness, account: PrivateKeyAccount, to: Address) => {
  const wallet = createWalletClient({ account, transport: http(h.testChain.local.rpcUrl) });
  const hash = await wallet.sendTransaction({ chain: null, to, value: EXTRA });
  const receipt = await h.testChain.chain.client.waitForTransactionReceipt({
    hash,
    pollingInterval: 200,
  });
  return receipt.gasUsed * receipt.effectiveGasPrice;
};

/** Pays as the way says, from a fresh payer; answers the payer, its start and its gas. */
const payAs = async (h: Harness, way: Way, address: Address, amount: bigint) => {
  const byContract = way === "contract-sent" || way === "contract, then plain";
  const payer = byContract
    ? await contractPayerOn(h.testChain, h.forwarder)
    : await payerOn(h.testChain);
  const start = await h.testChain.chain.client.getBalance({ address: payer.account.address });
  const pay: Pay = payer.pay;
  const values =
    way === "excess" ? [amount + EXTRA] : way === "duplicate" ? [amount, amount] : [amount];
  let ownGas = 0n;
  for (const value of values) ownGas += (await pay(address, value)).gas;
  if (way === "contract, then plain") ownGas += await plainTransfer(h, payer.account, address);
  return { payer: payer.account.address, start, ownGas };
};

const openTxs = async (h: Harness, subject: string) =>
  (await h.app.database.db.select().from(chainTxs).where(eq(chainTxs.subject, subject))).filter(
    (t) => t.status === "signed" || t.status === "sent",
  ).length;

const sweepsOf = async (h: Harness, paymentId: string) =>
  (await h.app.database.db.select().from(chainTxs).where(eq(chainTxs.subject, paymentId))).filter(
    (t) => t.purpose === "payment-sweep" && t.status === "mined",
  ).length;

const paymentRow = async (h: Harness, address: Address) =>
  (await h.app.database.db.select().from(payments).where(eq(payments.address, address)))[0];

/** Waits for the next block. */
export const nextBlock = async (testChain: TestChain) => {
  const now = await testChain.chain.client.getBlockNumber();
  while ((await testChain.chain.client.getBlockNumber()) === now)
    await new Promise((resolve) => setTimeout(resolve, 100));
};

/** A launch fee: a draft of a fresh user, its payment started (and expired or cancelled). */
const launchFee = async (h: Harness, way: Way): Promise<Case> => {
  const key = await h.app.auth.mintKey("user");
  const call = apiCaller(
    () => h.app,
    () => key,
  );
  const created = await call("POST", "/api/draft/create", draftInput());
  const draftId = created.body.draftId as string;
  const started = await call("POST", `/api/draft/${draftId}/payment`);
  if (started.status !== 200) throw new Error(`payment start: ${JSON.stringify(started.body)}`);
  const address = started.body.paymentAddress as Address;
  const row = await paymentRow(h, address);
  if (!row) throw new Error("no payment row");
  if (way === "late") {
    await h.app.database.db
      .update(payments)
      .set({ expiresAt: new Date(Date.now() - 5000) })
      .where(eq(payments.id, row.id));
    await h.app.fresh().paymentWatcher?.tick();
  }
  if (way === "after cancel") {
    const cancelled = await call("POST", `/api/draft/${draftId}/payment/cancel`);
    if (cancelled.status !== 200) throw new Error(`cancel: ${JSON.stringify(cancelled.body)}`);
  }
  const amount = BigInt(row.amount);
  const paid = await payAs(h, way, address, amount);
  return {
    kind: "launch fee",
    way,
    address,
    amount,
    ...paid,
    credited: async () => {
      const draft = (await call("GET", `/api/draft/${draftId}`)).body.draft as { status: string };
      return (await paymentRow(h, address))?.status === "paid" && draft.status === "paid";
    },
    final: async () =>
      (await paymentRow(h, address))?.settledAt != null && (await openTxs(h, row.id)) === 0,
    credits: () => sweepsOf(h, row.id),
  };
};

/** A paid key: a key payment of a fresh device (expired or cancelled as the way says). */
const paidKey = async (h: Harness, way: Way, n: number): Promise<Case> => {
  const call = publicCaller(() => h.app);
  const deviceId = `reliability-payments-${n}-${Date.now()}`;
  const started = await call("POST", "/api/auth/payment", { deviceId });
  if (started.status !== 200) throw new Error(`key payment: ${JSON.stringify(started.body)}`);
  const paymentId = started.body.paymentId as string;
  const address = started.body.paymentAddress as Address;
  if (way === "late")
    await h.app.database.db
      .update(payments)
      .set({ expiresAt: new Date(Date.now() - 5000) })
      .where(eq(payments.id, paymentId));
  if (way === "after cancel") {
    const cancelled = await call("POST", "/api/auth/payment/cancel", { paymentId, deviceId });
    if (cancelled.status !== 200) throw new Error(`cancel: ${JSON.stringify(cancelled.body)}`);
  }
  const amount = parseEther(started.body.paymentAmount as string);
  const paid = await payAs(h, way, address, amount);
  const keys = new Set<string>();
  return {
    kind: "paid key",
    way,
    address,
    amount,
    ...paid,
    credited: async () => (await paymentRow(h, address))?.status === "paid",
    final: async () =>
      (await paymentRow(h, address))?.settledAt != null && (await openTxs(h, paymentId)) === 0,
    credits: async () => {
      // Asked twice, as a client whose answer was lost would: it gets the same key again, and
      // one key (one user) is made per payment.
      for (let i = 0; i < 2; i++) {
        const status = await call(
          "GET",
          `/api/auth/payment/status?paymentId=${paymentId}&deviceId=${deviceId}`,
        );
        if (typeof status.body.key === "string") keys.add(status.body.key);
      }
      const made = await h.app.database.db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.deviceId, deviceId), eq(users.keySource, "purchased")));
      return Math.max(keys.size, made.length, await sweepsOf(h, paymentId));
    },
  };
};

const FINAL_DISPERSAL = ["completed", "partial", "failed", "expired", "cancelled"];

/** A dispersal of a fresh user to one fresh wallet (expired or cancelled as the way says). */
const dispersal = async (h: Harness, way: Way): Promise<Case> => {
  const key = await h.app.auth.mintKey("user");
  const call = apiCaller(
    () => h.app,
    () => key,
  );
  const destination = privateKeyToAccount(generatePrivateKey()).address;
  const created = await call("POST", "/api/wallets/disperse", {
    wallets: [destination],
    amounts: ["0.01"],
    antiBubblemaps: false,
  });
  if (created.status !== 200) throw new Error(`dispersal: ${JSON.stringify(created.body)}`);
  const { receiver, amount } = created.body as unknown as Dispersal;
  const address = receiver as Address;
  const status = async () =>
    (await call("GET", `/api/wallets/disperse/status?dispersalId=${receiver}`))
      .body as unknown as Dispersal;
  const [row] = await h.app.database.db
    .select()
    .from(dispersals)
    .where(eq(dispersals.receiver, receiver));
  if (!row) throw new Error("no dispersal row");
  if (way === "late") {
    await h.app.database.db
      .update(dispersals)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(dispersals.id, row.id));
    for (let i = 0; i < 10 && (await status()).status !== "expired"; i++) {
      await h.app.disperseEngine?.tick();
      if ((await status()).status !== "expired") await nextBlock(h.testChain);
    }
  }
  if (way === "after cancel") {
    const cancelled = await call("POST", "/api/wallets/disperse/cancel", {
      dispersalId: receiver,
    });
    if (cancelled.status !== 200) throw new Error(`cancel: ${JSON.stringify(cancelled.body)}`);
  }
  const value = parseEther(amount);
  const paid = await payAs(h, way, address, value);
  const delivered = parseEther("0.01");
  return {
    kind: "dispersal",
    way,
    address,
    amount: value,
    ...paid,
    credited: async () => (await status()).status === "completed",
    final: async () => {
      const now = await status();
      return (
        FINAL_DISPERSAL.includes(now.status) &&
        now.refunds.every((r) => r.status !== "signed" && r.status !== "sent") &&
        (await openTxs(h, row.id)) === 0
      );
    },
    credits: async () => {
      const got = await h.testChain.chain.client.getBalance({ address: destination });
      return got === 0n ? 0 : got === delivered ? 1 : 2;
    },
  };
};

/** Opens a payment of `kind`, prepares it as `way` says and pays it. */
export const openCase = (h: Harness, kind: Kind, way: Way, n: number): Promise<Case> =>
  kind === "launch fee"
    ? launchFee(h, way)
    : kind === "paid key"
      ? paidKey(h, way, n)
      : dispersal(h, way);

/** Refunds mined to the payer and the gas each cost (read from the chain's receipts). */
export const refundsTo = async (h: Harness, payer: Address) => {
  const txs = (await h.app.database.db.select().from(chainTxs)).filter(
    (t) => t.to?.toLowerCase() === payer.toLowerCase() && t.status === "mined",
  );
  let gas = 0n;
  for (const t of txs) {
    const receipt = await h.testChain.chain.client.getTransactionReceipt({
      hash: t.txHash as Hash,
    });
    gas += receipt.gasUsed * receipt.effectiveGasPrice;
  }
  return { count: txs.length, gas };
};
