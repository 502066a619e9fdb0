import { LaunchpadManagerArtifact } from "@bundler/contracts";
import type {
  Bumper,
  BumperWallet,
  Dispersal,
  PnlDrift,
  PnlTotals,
  PnlWallet,
} from "@bundler/shared";
import { sql } from "drizzle-orm";
import {
  type Address,
  createWalletClient,
  decodeEventLog,
  erc20Abi,
  type Hex,
  http,
  parseEther,
  type TransactionReceipt,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestApp } from "../../test/app.ts";
import { type LaunchedBundle, launchBundle, tokenBalance } from "../../test/bundles.ts";
import type { TestChain } from "../../test/chain.ts";
import { apiCaller, payerOn } from "../../test/drafts-api.ts";
import { startTestbed, stopTestbed } from "../../test/testbed.ts";

const masterKey = Buffer.alloc(32, 28);
let testChain: TestChain;
let app: TestApp;
let key: string;

beforeAll(async () => {
  ({ testChain, app, key } = await startTestbed(masterKey));
});
afterAll(() => stopTestbed({ app, testChain }));

const call = apiCaller(
  () => app,
  () => key,
);
const client = () => testChain.chain.client;
const receiptOf = (hash: string) =>
  client().waitForTransactionReceipt({ hash: hash as Hex, pollingInterval: 200, timeout: 20_000 });
const hashesOf = (body: Record<string, unknown>): string[] =>
  [
    ...((body.transactions as Array<{ hash: string | null }>) ?? []),
    ...(body.transaction ? [body.transaction as { hash: string | null }] : []),
    ...((body.results as Array<{ hash: string | null }>) ?? []),
  ].flatMap((t) => (t.hash ? [t.hash.toLowerCase()] : []));

/** The per-block passes a block would run here: receipts recorded, then the ledger appended. */
const passes = async () => {
  await app.transactions?.reconcile();
  await app.pnlLedger?.pass();
};

/** Until the ledger holds every one of these transactions (the per-block pass appends them). */
const ledgerHolds = (token: Address, hashes: string[]) =>
  vi.waitFor(
    async () => {
      await passes();
      const { rows } = await app.database.db.execute(
        sql`select distinct tx_hash from pnl_ledger where token = ${token.toLowerCase()}`,
      );
      const held = new Set((rows as Array<{ tx_hash: string }>).map((r) => r.tx_hash));
      const missing = hashes.filter((h) => !held.has(h));
      if (missing.length > 0) throw new Error(`not in the ledger yet: ${missing.join(", ")}`);
    },
    { timeout: 30_000, interval: 200 },
  );

const pnlOf = async (token: Address) => {
  const { status, body } = await call("GET", `/api/bundle/pnl?address=${token}`);
  expect(status).toBe(200);
  return body as {
    totals: PnlTotals;
    wallets: PnlWallet[];
    drift: PnlDrift[];
    lines: Array<{ kind: string; wei: string }>;
  };
};

type Event = ReturnType<typeof decodeEventLog<typeof LaunchpadManagerArtifact.abi>>;
const eventsOf = (receipt: TransactionReceipt): Event[] =>
  receipt.logs.flatMap((log) => {
    if (log.address.toLowerCase() !== testChain.chain.launchpad?.toLowerCase()) return [];
    try {
      return [decodeEventLog({ abi: LaunchpadManagerArtifact.abi, ...log })];
    } catch {
      return [];
    }
  });

describe("a scripted bundle: launch, partial sells, a dev sell and an empty", () => {
  let bundle: LaunchedBundle;
  /** Every transaction of the script, the launch block's included. */
  let receipts: TransactionReceipt[];
  /** The builders' tips, by payer: the launch's (the deployer's) and each sell bundle's. */
  let tips: Map<string, bigint>;

  beforeAll(async () => {
    bundle = await launchBundle(app, testChain, key, { wallets: 3 });
    const [a, b, c] = bundle.wallets.map((w) => w.address) as [Address, Address, Address];
    const sold = await call("POST", "/api/bundle/wallets/sell", {
      address: bundle.token,
      wallets: [a, b],
      amount: "50",
      isPercentage: true,
    });
    expect(sold.status).toBe(200);
    const devSold = await call("POST", "/api/bundle/developer/sell", {
      address: bundle.token,
      amount: "50",
      isPercentage: true,
    });
    expect(devSold.status).toBe(200);
    const scripted = [...hashesOf(sold.body), ...hashesOf(devSold.body)];
    for (const hash of scripted) await receiptOf(hash);
    const emptied = await call("POST", "/api/bundle/wallets/empty", {
      address: bundle.token,
      wallets: [c],
      receiver: privateKeyToAccount(generatePrivateKey()).address,
    });
    expect(emptied.status).toBe(200);
    scripted.push(...hashesOf(emptied.body));

    const { blockNumber } = (
      await app.database.db.execute(
        sql`select block_number::text as "blockNumber" from launches where token_address = ${bundle.token}`,
      )
    ).rows[0] as { blockNumber: string };
    for (const hash of scripted) await receiptOf(hash);
    // Every transaction of the bundle's addresses in the launch's block and the script's
    // blocks: the script's own, and the builders' tips (no record of the app's).
    const blocks = new Set([BigInt(blockNumber)]);
    for (const hash of scripted) blocks.add((await receiptOf(hash)).blockNumber);
    const own = new Set([bundle.deployer, ...bundle.wallets].map((w) => w.address.toLowerCase()));
    const tipAddresses = new Set(testChain.chain.builders.map((b) => b.tipAddress.toLowerCase()));
    const hashes = new Set(scripted);
    tips = new Map();
    for (const number of blocks) {
      const block = await client().getBlock({ blockNumber: number, includeTransactions: true });
      for (const tx of block.transactions) {
        if (!own.has(tx.from.toLowerCase())) continue;
        hashes.add(tx.hash.toLowerCase());
        if (tipAddresses.has(tx.to?.toLowerCase() ?? ""))
          tips.set(tx.from.toLowerCase(), (tips.get(tx.from.toLowerCase()) ?? 0n) + tx.value);
      }
    }
    receipts = await Promise.all([...hashes].map(receiptOf));
    await ledgerHolds(bundle.token, [...hashes]);
  });

  it("counts every cost and sale to the wei, as summed by hand from the receipts", async () => {
    let gas = 0n;
    let buys = 0n;
    let fees = 0n;
    let proceeds = 0n;
    let createFee = 0n;
    let bought = 0n;
    let sold = 0n;
    for (const receipt of receipts) {
      gas += receipt.gasUsed * receipt.effectiveGasPrice;
      for (const event of eventsOf(receipt)) {
        if (event.eventName === "TokenCreate") createFee += event.args.launchFee;
        if (event.eventName === "TokenPurchase") {
          buys += event.args.cost;
          fees += event.args.fee;
          bought += event.args.amount;
        }
        if (event.eventName === "TokenSale") {
          proceeds += event.args.cost;
          fees += event.args.fee;
          sold += event.args.amount;
        }
      }
    }
    const tipValue = [...tips.values()].reduce((sum, v) => sum + v, 0n);
    const cost = gas + buys + fees + createFee + tipValue;
    const { totals } = await pnlOf(bundle.token);
    expect(sold).toBeGreaterThan(0n);
    // The launch's tip (0.001 BNB) and each sell bundle's, all paid to the builder.
    expect(tipValue).toBeGreaterThanOrEqual(parseEther("0.001"));
    expect(totals.costWei).toBe(cost.toString());
    expect(totals.proceedsWei).toBe(proceeds.toString());
    expect(totals.realizedWei).toBe((proceeds - (cost * sold) / bought).toString());
  });

  it("gives each wallet only what it paid and received itself", async () => {
    const [a] = bundle.wallets.map((w) => w.address) as [Address];
    let cost = tips.get(a.toLowerCase()) ?? 0n;
    let proceeds = 0n;
    for (const receipt of receipts) {
      if (receipt.from.toLowerCase() === a.toLowerCase())
        cost += receipt.gasUsed * receipt.effectiveGasPrice;
      for (const event of eventsOf(receipt)) {
        if (event.eventName !== "TokenPurchase" && event.eventName !== "TokenSale") continue;
        if (event.args.account.toLowerCase() !== a.toLowerCase()) continue;
        cost += event.args.fee + (event.eventName === "TokenPurchase" ? event.args.cost : 0n);
        if (event.eventName === "TokenSale") proceeds += event.args.cost;
      }
    }
    const { wallets } = await pnlOf(bundle.token);
    expect(wallets.map((w) => w.role)).toEqual(["developer", "bundle", "bundle", "bundle"]);
    expect(wallets.find((w) => w.address === a)).toMatchObject({
      costWei: cost.toString(),
      proceedsWei: proceeds.toString(),
    });
  });

  it("reconciles every wallet's ledger with its balance on the chain to the wei", async () => {
    const { drift } = await pnlOf(bundle.token);
    expect(drift).toHaveLength(4);
    for (const entry of drift) {
      expect(entry.ledgerWei, entry.address).toBe(entry.chainWei);
      expect(entry.flagged).toBe(false);
    }
  });

  it("adds nothing when the pass runs again over the same blocks", async () => {
    const count = async () =>
      (
        (await app.database.db.execute(sql`select count(*)::int as n from pnl_ledger`)).rows[0] as {
          n: number;
        }
      ).n;
    const before = await count();
    expect(await app.pnlLedger?.pass()).toBe(0);
    // A process that starts afresh reads from the saved cursor and finds nothing new either.
    expect(await app.fresh().pnlLedger?.pass()).toBe(0);
    expect(await count()).toBe(before);
  });

  it("exports the ledger as CSV, a header row then a line per entry", async () => {
    const response = await app.server.inject({
      method: "GET",
      url: `/api/bundle/pnl.csv?address=${bundle.token}`,
      headers: { "x-auth-key": key },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/csv");
    const lines = response.body.trim().split("\n");
    expect(lines[0]).toBe("block,time,tx_hash,log_index,kind,role,wallet,wei,bnb,tokens");
    const { rows } = await app.database.db.execute(
      sql`select count(*)::int as n from pnl_ledger where token = ${bundle.token.toLowerCase()}`,
    );
    expect(lines).toHaveLength((rows[0] as { n: number }).n + 1);
  });

  it("charts cost and proceeds by block, the last point's exit value now's", async () => {
    const { status, body } = await call("GET", `/api/bundle/pnl/history?address=${bundle.token}`);
    expect(status).toBe(200);
    const points = body.points as Array<{ costWei: string; proceedsWei: string; exitWei: string }>;
    const { totals } = await pnlOf(bundle.token);
    expect(points.at(-1)).toMatchObject({
      costWei: totals.costWei,
      proceedsWei: totals.proceedsWei,
      exitWei: totals.exitWei,
    });
  });
});

describe("GET /api/bundle/pnl", () => {
  it("answers 404 for another user's token", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const other = await app.auth.mintKey("user");
    for (const path of ["/api/bundle/pnl", "/api/bundle/pnl/history", "/api/bundle/pnl.csv"]) {
      const { status } = await call("GET", `${path}?address=${bundle.token}`, undefined, other);
      expect(status, path).toBe(404);
    }
  });

  it("counts a top-up through the app's disperser after the launch, and flags nothing", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 2 });
    const [a] = bundle.wallets.map((w) => w.address) as [Address];
    const created = await call("POST", "/api/wallets/disperse", {
      wallets: [a],
      amounts: ["0.02"],
      antiBubblemaps: false,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const dispersal = created.body as unknown as Dispersal;
    await (await payerOn(testChain)).pay(
      dispersal.receiver as Address,
      parseEther(dispersal.amount),
    );
    await vi.waitFor(
      async () => {
        await app.disperseEngine?.tick();
        await passes();
        const { body } = await call(
          "GET",
          `/api/wallets/disperse/status?dispersalId=${dispersal.receiver}`,
        );
        expect((body as unknown as Dispersal).status).toBe("completed");
        const { drift } = await pnlOf(bundle.token);
        const mine = drift.find((d) => d.address === a);
        expect(mine).toMatchObject({ flagged: false });
        expect(mine?.ledgerWei).toBe(mine?.chainWei);
      },
      { timeout: 30_000, interval: 200 },
    );
    const { rows } = await app.database.db.execute(
      sql`select wallet, bnb::text as bnb from pnl_ledger
        where token = ${bundle.token.toLowerCase()} and kind = 'funding'`,
    );
    expect(rows).toEqual([{ wallet: a.toLowerCase(), bnb: parseEther("0.02").toString() }]);
  });

  it("flags a wallet whose balance moved by a transfer the app did not make", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 2 });
    const [a, b] = bundle.wallets.map((w) => w.address) as [Address, Address];
    await vi.waitFor(
      async () => {
        await passes();
        const { drift } = await pnlOf(bundle.token);
        if (drift.length !== 3 || drift.some((d) => d.ledgerWei !== d.chainWei))
          throw new Error("the launch is not in the ledger yet");
      },
      { timeout: 30_000, interval: 200 },
    );
    const payer = await payerOn(testChain);
    await payer.pay(a, parseEther("0.01"));
    // The balances are read once per block: the next block's read shows the transfer.
    await vi.waitFor(
      async () => {
        const { drift } = await pnlOf(bundle.token);
        expect(drift.find((d) => d.address === a)).toMatchObject({ flagged: true });
        expect(drift.find((d) => d.address === b)).toMatchObject({ flagged: false });
      },
      { timeout: 10_000, interval: 200 },
    );
  });
});

describe("a bumper's withdrawal on the bundle's token", () => {
  it.each([
    ["another user's bumper", async () => app.auth.mintKey("user")],
    ["the owner's own bumper", async () => key],
  ])("leaves the bundle's P&L and CSV without %s's sells and empties", async (_, bumperKey) => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const other = await bumperKey();
    const generated = await call(
      "POST",
      "/api/bumper/generate",
      { targetToken: bundle.token, interval: 1, duration: 10, buySize: 0.01 },
      other,
    );
    expect(generated.status, JSON.stringify(generated.body)).toBe(200);
    const bumper = generated.body.bumper as Bumper;
    // Its wallet holds BNB and some of the token (given by a bundle wallet, outside the app):
    // the withdrawal sells them, then empties the wallet.
    await testChain.rpc("anvil_setBalance", [
      bumper.address,
      `0x${parseEther("0.1").toString(16)}`,
    ]);
    const giver = bundle.wallets[0] as (typeof bundle.wallets)[number];
    const hash = await createWalletClient({
      account: giver,
      transport: http(testChain.local.rpcUrl),
    }).writeContract({
      chain: null,
      address: bundle.token,
      abi: erc20Abi,
      functionName: "transfer",
      args: [
        bumper.address as Address,
        (await tokenBalance(testChain, bundle.token, giver.address)) / 2n,
      ],
    });
    await receiptOf(hash);
    const withdrawn = await call(
      "POST",
      "/api/bumper/withdraw",
      { bumperId: bumper.id, receiverAddress: privateKeyToAccount(generatePrivateKey()).address },
      other,
    );
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    const theirs = (
      (await call("GET", `/api/bumper/${bumper.id}/wallets`, undefined, other)).body
        .wallets as BumperWallet[]
    ).map((w) => w.address.toLowerCase());
    const { rows } = await app.database.db.execute(
      sql`select purpose, tx_hash from chain_txs where subject = ${bundle.token.toLowerCase()}
        and status = 'mined' and lower("from") = any(${`{${theirs.join(",")}}`}::text[])`,
    );
    const sent = rows as Array<{ purpose: string; tx_hash: string }>;
    expect(new Set(sent.map((r) => r.purpose))).toEqual(
      new Set(["bundle-approve", "bundle-sell", "bundle-empty"]),
    );
    // Twice: the ledger's pass reads what the reconcile of the first pass recorded mined.
    await passes();
    await passes();

    const { rows: lines } = await app.database.db.execute(
      sql`select tx_hash, wallet, kind from pnl_ledger where token = ${bundle.token.toLowerCase()}
        and (wallet = any(${`{${theirs.join(",")}}`}::text[])
          or tx_hash = any(${`{${sent.map((r) => r.tx_hash).join(",")}}`}::text[]))`,
    );
    expect(lines).toEqual([]);
    const pnl = await pnlOf(bundle.token);
    expect(pnl.totals.emptiedWei).toBe("0");
    expect(pnl.wallets.map((w) => w.address.toLowerCase())).not.toContain(theirs[0]);
    const csv = await app.server.inject({
      method: "GET",
      url: `/api/bundle/pnl.csv?address=${bundle.token}`,
      headers: { "x-auth-key": key },
    });
    for (const wallet of theirs) expect(csv.body).not.toContain(wallet);
  });
});
