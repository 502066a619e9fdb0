import { readFileSync } from "node:fs";
import path from "node:path";
import { getTokenInfo, prepareBuy } from "@bundler/chain";
import { LaunchpadManagerArtifact } from "@bundler/contracts";
import type { AutosellFiring, AutosellRule } from "@bundler/shared";
import {
  type Address,
  createPublicClient,
  erc20Abi,
  formatEther,
  type Hex,
  http,
  parseEther,
  parseEventLogs,
  TransactionReceiptNotFoundError,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendPreparedBuy } from "../../test/bundles.ts";
import { BSC_BLOCK_SECONDS, crashServer, launchThrough } from "../../test/crash-server.ts";

/**
 * The real server, killed (SIGKILL, at failpoints and at a moment of the test's choosing)
 * between a ladder tier's decision and its sales, then started again on the same data: each
 * tier sells once, in order, whichever process life recorded it and whichever sent it.
 */
const FEE = parseEther("0.01");
const MIN_BUY = parseEther("0.02");
const MAX_BUY = parseEther("3");
const POSTGRES = Boolean(process.env.DATABASE_URL);
const crashed = crashServer(
  "autosell-crash",
  { LAUNCH_FEE_BNB: "0.01", BLOCK_TIME_SECONDS: String(BSC_BLOCK_SECONDS) },
  { postgres: process.env.DATABASE_URL },
);
const { api, waitFor, setBalance, start } = crashed;
const server = {
  stop: () => crashed.process.stop(),
  exited: () => crashed.process.exited(),
  crash: () => crashed.process.crash(),
};
/** A reader that polls receipts quickly (the chain makes a block a second). */
const client = () => createPublicClient({ transport: http(crashed.url()), pollingInterval: 100 });

let token: Address;
let holders: Address[];
let launchBlock: bigint;
let contracts: { launchpad: Address; helper: Address; router: Address; weth: Address };

beforeAll(async () => {
  await start();
  const launched = await launchThrough(crashed, 2, FEE);
  token = launched.token;
  const { input } = launched;
  holders = input.walletConfig.wallets.map((w) => w.address as Address);
  launchBlock = await client().getBlockNumber();
  contracts = JSON.parse(
    readFileSync(path.join(crashed.dataDir, "chain", "deployment.json"), "utf8"),
  ).contracts;
}, 240_000);

afterAll(() => crashed.remove());

/** The token's market cap now, as the engine reads it: last price × a billion tokens. */
const marketCap = async () =>
  (await getTokenInfo(client(), { helper: contracts.helper, token })).lastPrice * 1_000_000_000n;

const outsider = privateKeyToAccount(generatePrivateKey());
/**
 * One outside buy of `funds`; answers false when the chain stopped answering before it was
 * seen mined: a server armed to die at the firing takes its chain with it, maybe before the
 * buy's receipt is read.
 */
const buy = async (funds: bigint): Promise<boolean> => {
  const prepared = await prepareBuy(client(), { account: outsider, ...contracts, token, funds });
  const hash = await sendPreparedBuy(client(), outsider, prepared);
  for (;;) {
    const receipt = await client()
      .getTransactionReceipt({ hash })
      .catch((error: Error) => (error instanceof TransactionReceiptNotFoundError ? null : false));
    if (receipt === false) return false;
    if (receipt) {
      expect(receipt.status).toBe("success");
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/**
 * The outsider buys until the market cap is at or above `target`: each buy sized from what the
 * last one moved the cap, so the cap ends past `target` and short of the next tier's value. A
 * chain gone after a buy means the server died at the firing: the buy passed the tier.
 */
const pushPast = async (target: bigint) => {
  await setBalance(outsider.address, parseEther("100"));
  let funds = parseEther("0.1");
  let cap = await marketCap();
  while (cap < target) {
    if (!(await buy(funds))) return;
    const next = await marketCap().catch(() => null);
    if (next === null) return;
    // The cap per BNB the last buy moved it, in thousandths.
    const rate = next > cap ? ((next - cap) * 1000n) / funds : 0n;
    funds = rate > 0n ? ((target - next) * 1100n) / rate : parseEther("0.1");
    if (funds < MIN_BUY) funds = MIN_BUY;
    if (funds > MAX_BUY) funds = MAX_BUY;
    cap = next;
  }
};

const ruleOf = async (id: string) =>
  ((await api("GET", `/api/bundle/rules?address=${token}`)).body.rules as AutosellRule[]).find(
    (r) => r.id === id,
  ) as AutosellRule;

/**
 * Waits until tier `tier`'s firing sent its sales and every one of them is mined. "Sent" is not
 * yet "landed": a sale whose bundle missed its window (a restart that took longer than the
 * window, a loaded machine) is dropped, and the firing reopens and sells that wallet again as a
 * new attempt, so its list is read again until every hash in it has a receipt.
 */
const soldTier = async (id: string, tier: number): Promise<AutosellFiring> => {
  let sent: { firing: AutosellFiring; statuses: string[] } | undefined;
  await waitFor(
    async () => {
      const firing = (await ruleOf(id)).firings.find((f) => f.tier === tier);
      if (firing?.state !== "sent") return false;
      const receipts = await Promise.all(
        firing.transactions.map((hash) =>
          client()
            .getTransactionReceipt({ hash: hash as Hex })
            .catch(() => null),
        ),
      );
      if (receipts.some((r) => r === null)) return false;
      sent = { firing, statuses: receipts.map((r) => r?.status ?? "") };
      return true;
    },
    `tier ${tier + 1}'s sales, mined`,
    150_000,
  );
  const { firing, statuses } = sent as NonNullable<typeof sent>;
  expect(
    statuses.every((s) => s === "success"),
    statuses.join(),
  ).toBe(true);
  return firing;
};

/** Every sale of the token by each holder on the chain since the launch, with its block. */
const salesOf = async () => {
  const logs = await client().getLogs({ address: contracts.launchpad, fromBlock: launchBlock });
  const sales = parseEventLogs({
    abi: LaunchpadManagerArtifact.abi,
    logs,
    eventName: "TokenSale",
  }).filter((e) => (e.args as { token: Address }).token.toLowerCase() === token.toLowerCase());
  return holders.map((h) =>
    sales
      .filter((e) => (e.args as { account: Address }).account.toLowerCase() === h.toLowerCase())
      .map((e) => e.blockNumber),
  );
};

const held = () =>
  Promise.all(
    holders.map((h) =>
      client().readContract({
        address: token,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [h],
      }),
    ),
  );

describe("a server killed between a ladder tier's decision and its sales", () => {
  it("sells each tier once, in order, across the kills", async () => {
    const cap = await marketCap();
    const at = (percent: bigint) => formatEther((cap * percent) / 100n);
    const before = await held();
    expect(before.every((b) => b > 0n)).toBe(true);
    const armed = await api("POST", "/api/bundle/rules", {
      address: token,
      action: {
        tiers: [
          {
            trigger: { any: [{ type: "marketCap", atLeast: at(115n), unit: "BNB" }] },
            percent: 25,
          },
          {
            trigger: { any: [{ type: "marketCap", atLeast: at(160n), unit: "BNB" }] },
            percent: 25,
          },
          {
            trigger: { any: [{ type: "marketCap", atLeast: at(230n), unit: "BNB" }] },
            percent: 50,
          },
        ],
      },
    });
    expect(armed.status, JSON.stringify(armed.body)).toBe(200);
    const id = (armed.body.rule as AutosellRule).id;

    // Tier 1: killed once its firing is recorded, again as its wave is about to go, and again
    // once its first transaction is recorded; the fourth process life sells it. On Postgres a
    // pass its process left running blocks the next until pg-boss fails it over (the queue's
    // 30 s expiry and its maintenance): there the second and third kill are left out.
    await server.stop();
    await start("autosell.decided");
    await pushPast((cap * 115n) / 100n);
    expect(await server.exited()).toBe("SIGKILL");
    for (const point of POSTGRES ? [] : ["autosell.wave", "tx.recorded"]) {
      await start(point);
      expect(await server.exited()).toBe("SIGKILL");
    }
    await start();
    const first = await soldTier(id, 0);
    expect((await salesOf()).map((s) => s.length)).toEqual([1, 1]);
    const quarter = await held();
    quarter.forEach((h, i) => {
      const was = before[i] as bigint;
      expect(h).toBeGreaterThanOrEqual((was * 3n) / 4n);
      expect(h).toBeLessThanOrEqual((was * 3n) / 4n + 10n ** 9n);
    });

    // Tier 2: the process dies at a moment of the test's choosing once its cap is passed.
    await pushPast((cap * 160n) / 100n);
    await waitFor(
      async () => (await ruleOf(id)).firings.some((f) => f.tier === 1),
      "tier 2's decision",
    );
    await server.crash();
    await start();
    const second = await soldTier(id, 1);
    expect((await salesOf()).map((s) => s.length)).toEqual([2, 2]);

    // Tier 3: dies as its wave is about to go; sold after the restart, all that is left.
    await server.stop();
    await start("autosell.wave");
    await pushPast((cap * 230n) / 100n);
    expect(await server.exited()).toBe("SIGKILL");
    await start();
    const third = await soldTier(id, 2);
    await waitFor(async () => (await ruleOf(id)).state === "fired", "the rule fired");
    expect(await held()).toEqual([0n, 0n]);

    // Each tier once, decided in order, its sales in order; nothing decided or sold after.
    const rule = await ruleOf(id);
    expect(rule.firings.map((f) => f.tier).sort()).toEqual([0, 1, 2]);
    expect(BigInt(first.block)).toBeLessThan(BigInt(second.block));
    expect(BigInt(second.block)).toBeLessThan(BigInt(third.block));
    const sales = await salesOf();
    for (const blocks of sales) {
      expect(blocks).toHaveLength(3);
      expect([...blocks].sort((a, b) => Number(a - b))).toEqual(blocks);
      expect(new Set(blocks).size).toBe(3);
    }
  }, 300_000);
});
