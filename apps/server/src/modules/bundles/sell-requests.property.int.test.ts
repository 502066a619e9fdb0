import { prepareBuy } from "@bundler/chain";
import { LaunchpadManagerArtifact } from "@bundler/contracts";
import fc from "fast-check";
import { type Address, parseEther, parseEventLogs } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { armFailpoint, disarmFailpoints } from "../../lib/failpoints.ts";
import type { TestApp } from "../../test/app.ts";
import {
  type LaunchedBundle,
  launchBundle,
  sendPreparedBuy,
  setBalances,
} from "../../test/bundles.ts";
import type { TestChain } from "../../test/chain.ts";
import { apiCaller } from "../../test/drafts-api.ts";
import { startTestbed, stopTestbed } from "../../test/testbed.ts";

// The property: however often one request id is asked again, with the server cut off at each
// failpoint of the sell path, builders refusing, blocks mined or not, its signed bytes sent on
// by someone after its window, or the curve moved by an outside buyer, it sells each wallet at
// most once; and once nothing stands in the way, exactly once.
const masterKey = Buffer.alloc(32, 28);
const RUNS = 16;
let testChain: TestChain;
let app: TestApp;
let key: string;
let bundle: LaunchedBundle;
let next = 0;

beforeAll(async () => {
  ({ testChain, app, key } = await startTestbed(masterKey));
  bundle = await launchBundle(app, testChain, key, { wallets: RUNS + 4, buy: "0.02" });
  // The chain moves only when a step says so (the builder still mines each bundle it takes).
  await testChain.setBlockTime(0);
  // A quiet price: a sale signed again with nothing moved is the very same transaction.
  await testChain.rpc("anvil_setNextBlockBaseFeePerGas", ["0x0"]);
  await testChain.mine();
});
afterAll(async () => {
  disarmFailpoints();
  await stopTestbed({ app, testChain });
});

const call = apiCaller(
  () => app,
  () => key,
);

type Step =
  | { kind: "ask" }
  | { kind: "cut"; at: "tx.recorded" | "sell.submitted" }
  | { kind: "refused" }
  | { kind: "mine"; blocks: number }
  | { kind: "leak" }
  | { kind: "outsideBuy" };

// Weighted toward what makes a request ask again after its bundle could no longer land.
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Step>({ kind: "ask" }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<Step>(
      { kind: "cut", at: "tx.recorded" },
      { kind: "cut", at: "sell.submitted" },
    ),
  },
  { weight: 1, arbitrary: fc.constant<Step>({ kind: "refused" }) },
  {
    weight: 3,
    arbitrary: fc.integer({ min: 1, max: 8 }).map((blocks): Step => ({ kind: "mine", blocks })),
  },
  { weight: 1, arbitrary: fc.constant<Step>({ kind: "leak" }) },
  { weight: 1, arbitrary: fc.constant<Step>({ kind: "outsideBuy" }) },
);

const ask: Step = { kind: "ask" };

const sell = (wallet: Address, requestId: string) =>
  call("POST", "/api/bundle/wallets/sell", {
    address: bundle.token,
    wallets: [wallet],
    amount: "30",
    isPercentage: true,
    requestId,
  });

/** The launchpad's sales by `wallet` since `fromBlock`. */
const salesOf = async (wallet: Address, fromBlock: bigint): Promise<number> => {
  const { client, launchpad } = testChain.chain;
  const logs = await client.getLogs({ address: launchpad as Address, fromBlock });
  return parseEventLogs({ abi: LaunchpadManagerArtifact.abi, logs, eventName: "TokenSale" }).filter(
    (log) => (log.args as { account?: string }).account?.toLowerCase() === wallet.toLowerCase(),
  ).length;
};

const mine = async (blocks: number) => {
  for (let i = 0; i < blocks; i++) await testChain.mine();
  await app.transactions?.reconcile();
};

/** An outside buyer moves the curve: a sale priced again is not the same transaction. */
const outsideBuy = async () => {
  const buyer = privateKeyToAccount(generatePrivateKey());
  await setBalances(testChain, [[buyer.address, parseEther("1")]]);
  const chain = testChain.chain;
  const prepared = await prepareBuy(chain.client, {
    account: buyer,
    launchpad: chain.launchpad as Address,
    ...(chain.trade as NonNullable<typeof chain.trade>),
    token: bundle.token,
    funds: parseEther("0.01"),
  });
  const hash = await sendPreparedBuy(chain.client, buyer, prepared);
  await testChain.mine();
  await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
};

/** Sends on, as anyone holding them could, the signed bytes of the request's dropped rows. */
const leak = async (requestId: string) => {
  const rows = ((await app.transactions?.byKeyPrefix("bundle-sell:")) ?? []).filter(
    (row) => row.key.includes(`:r:${requestId}`) && row.status === "dropped",
  );
  for (const row of rows) await testChain.rpc("eth_sendRawTransaction", [row.rawTx]);
  if (rows.length > 0) await testChain.mine();
};

describe("one sell request asked again and again", () => {
  it("sells each wallet at most once, and once nothing stands in the way, exactly once", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 10 }), async (steps) => {
        const wallet = bundle.wallets[next]?.address as Address;
        const requestId = `prop-sell-${next}`;
        next += 1;
        const from = await testChain.chain.client.getBlockNumber();
        for (const s of steps) {
          if (s.kind === "ask") await sell(wallet, requestId);
          else if (s.kind === "cut") {
            armFailpoint(s.at, "throw", 1);
            await sell(wallet, requestId);
            disarmFailpoints();
          } else if (s.kind === "refused") {
            await testChain.faults({ failMethod: { method: "eth_sendBundle", times: 1 } });
            await sell(wallet, requestId);
            await testChain.faults({});
          } else if (s.kind === "mine") await mine(s.blocks);
          else if (s.kind === "leak") await leak(requestId);
          else await outsideBuy();
          expect(await salesOf(wallet, from)).toBeLessThanOrEqual(1);
        }
        // Nothing in the way any more: the request, asked until its sale is settled, sells once.
        for (let i = 0; i < 4 && (await salesOf(wallet, from)) === 0; i++) {
          await mine(7);
          await sell(wallet, requestId);
          await mine(3);
        }
        expect(await salesOf(wallet, from)).toBe(1);
      }),
      {
        numRuns: RUNS,
        endOnFailure: true,
        // The review's scenarios first: a request cut off or refused, its window passed, then
        // asked again twice; and its bytes sent on by someone after its row was dropped.
        examples: [
          [[{ kind: "cut", at: "tx.recorded" }, { kind: "mine", blocks: 8 }, ask, ask]],
          [[{ kind: "refused" }, { kind: "mine", blocks: 8 }, ask, ask, ask]],
          [
            [
              { kind: "cut", at: "tx.recorded" },
              { kind: "mine", blocks: 8 },
              { kind: "leak" },
              ask,
            ],
          ],
        ],
      },
    );
  }, 240_000);
});
