import type { Draft } from "@bundler/shared";
import { eq } from "drizzle-orm";
import { type Address, erc20Abi, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { delayedBuys, launchJobs } from "../../db/schema.ts";
import type { ChainContext } from "../../lib/chain-context.ts";
import { armFailpoint, disarmFailpoints } from "../../lib/failpoints.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import {
  apiCaller,
  draftInput,
  type ExtraConfig,
  newWallet,
  payerOn,
} from "../../test/drafts-api.ts";
import { freshWatcher } from "../../test/payment-watcher.ts";
import { TxManager } from "../transactions/tx-manager.ts";
import { LAUNCH_EXECUTE } from "./launch.jobs.ts";
import { LaunchRepository } from "./launch.repository.ts";

/**
 * Issue 11, item by item: a launch is launched once, whatever fails around it. The rule under
 * every test: a draft is back to `paid` only when no create of its attempt landed, and it is
 * `executed` exactly when one did.
 */
let testChain: TestChain;
let chain: ChainContext;
let app: TestApp;
let key: string;
const treasury = privateKeyToAccount(generatePrivateKey()).address;
const masterKey = Buffer.alloc(32, 11);
const FEE = parseEther("0.01");

const rpc = (method: string, params: unknown[]) => testChain.rpc(method, params);
const setBalance = (address: Address, value: bigint) =>
  rpc("anvil_setBalance", [address, `0x${value.toString(16)}`]);

beforeAll(async () => {
  testChain = await startTestChain(masterKey);
  ({ chain } = testChain);
  app = await createTestApp({
    chain: { ...chain, bundleTimeoutMs: 1500 },
    masterKey,
    launchFeeBnb: "0.01",
    treasuryAddress: treasury,
    bodyLimitBytes: 2 * 1024 * 1024,
  });
  key = await app.auth.mintKey("user");
});
afterAll(async () => {
  await app?.close();
  await testChain?.stop();
});
afterEach(async () => {
  vi.restoreAllMocks();
  disarmFailpoints();
  await testChain.faults({});
});

const call = apiCaller(
  () => app,
  () => key,
);

const paidDraft = async (walletCount = 2, extraConfig: ExtraConfig = () => ({})) => {
  const input = draftInput(walletCount, extraConfig);
  const id = (await call("POST", "/api/draft/create", input)).body.draftId as string;
  const address = (await call("POST", `/api/draft/${id}/payment`)).body.paymentAddress as Address;
  await (await payerOn(testChain)).pay(address, FEE);
  await freshWatcher(app, chain, treasury).tick();
  await setBalance(input.deployerWallet.address, parseEther("1"));
  for (const w of input.walletConfig.wallets) await setBalance(w.address, parseEther("0.2"));
  return { id, input };
};

const draftOf = async (id: string) => (await call("GET", `/api/draft/${id}`)).body.draft as Draft;
const creates = (deployer: Address) => chain.client.getTransactionCount({ address: deployer });
const tokensOf = (token: Address, holder: Address) =>
  chain.client.readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [holder],
  });

/** A few blocks later: a bundle that was going to land has landed. */
const blocksPass = async (count = 4) => {
  const target = (await chain.client.getBlockNumber()) + BigInt(count);
  while ((await chain.client.getBlockNumber()) < target)
    await new Promise((resolve) => setTimeout(resolve, 200));
};

/** The rule: paid ⇒ nothing of the deployer's landed; executed ⇒ the create landed. */
const expectHonest = async (id: string, deployer: Address) => {
  await blocksPass();
  const draft = await draftOf(id);
  const created = await creates(deployer);
  if (draft.status === "paid") expect(created, "a paid draft whose token exists").toBe(0);
  else {
    expect(draft.status).toBe("executed");
    expect(created).toBeGreaterThan(0);
  }
  return draft;
};

const execute = async (id: string) => {
  const started = await call("POST", `/api/draft/${id}/execute`);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  await app.launches.idle();
};

const restarted = async () => (await app.restarted()).launches;

describe("a launch is launched once", () => {
  it("completes a launch whose builder answered too late although the bundle landed (item 1)", async () => {
    const { id, input } = await paidDraft();
    await testChain.faults({ bundleAnswerDelayMs: 4000 });
    await execute(id);
    const draft = await expectHonest(id, input.deployerWallet.address);
    expect(draft.status).toBe("executed");
    const again = await call("POST", `/api/draft/${id}/execute`);
    expect(again.status).toBe(409);
  });

  it("completes a launch when the node fails while waiting for the bundle (item 1)", async () => {
    const { id, input } = await paidDraft();
    await testChain.faults({ failMethod: { method: "eth_getTransactionReceipt", times: 3 } });
    await execute(id);
    const draft = await expectHonest(id, input.deployerWallet.address);
    expect(draft.status).toBe("executed");
  });

  it("completes a launch whose first write after inclusion failed (item 1)", async () => {
    const { id, input } = await paidDraft();
    vi.spyOn(LaunchRepository.prototype, "complete").mockRejectedValueOnce(
      new Error("Connection terminated unexpectedly"),
    );
    await execute(id);
    const draft = await expectHonest(id, input.deployerWallet.address);
    expect(draft.status).toBe("executed");
    expect(draft.launch?.tokenAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it("launches a draft whose request died right after the claim: its job was queued with the claim (item 4)", async () => {
    const { id, input } = await paidDraft();
    armFailpoint("launch.claimed", "throw", 1);
    expect((await call("POST", `/api/draft/${id}/execute`)).status).toBe(500);
    const [job] = await app.database.db.select().from(launchJobs).where(eq(launchJobs.draftId, id));
    expect(await app.jobs.stateOf(LAUNCH_EXECUTE.name, job?.id as string)).not.toBeNull();
    for (let i = 0; i < 150 && (await draftOf(id)).status === "executing"; i++)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await expectHonest(id, input.deployerWallet.address)).status).toBe("executed");
  });

  it("sends no bundle of a launch another process settled meanwhile (its lock lost unnoticed): the draft stays paid and no token exists", async () => {
    const { id, input } = await paidDraft(1);
    const record = TxManager.prototype.recordBundle;
    vi.spyOn(TxManager.prototype, "recordBundle").mockImplementationOnce(async function (
      this: TxManager,
      ...args: Parameters<TxManager["recordBundle"]>
    ) {
      // Another process found the launch's lock free, saw nothing recorded, and released it.
      const [job] = await app.database.db
        .select()
        .from(launchJobs)
        .where(eq(launchJobs.draftId, id));
      const jobId = job?.id as string;
      const repository = new LaunchRepository(app.database.db);
      expect(await repository.release(jobId, id, "settled elsewhere", `launch:${jobId}:b0:0`)).toBe(
        true,
      );
      return record.apply(this, args);
    });
    await execute(id);
    const draft = await expectHonest(id, input.deployerWallet.address);
    expect(draft.status).toBe("paid");
  });

  it("does not release a launch whose create another process recorded meanwhile", async () => {
    const { id } = await paidDraft(1);
    const record = TxManager.prototype.recordBundle;
    let released: boolean | undefined;
    vi.spyOn(TxManager.prototype, "recordBundle").mockImplementationOnce(async function (
      this: TxManager,
      ...args: Parameters<TxManager["recordBundle"]>
    ) {
      const rows = await record.apply(this, args);
      const [job] = await app.database.db
        .select()
        .from(launchJobs)
        .where(eq(launchJobs.draftId, id));
      const jobId = job?.id as string;
      released = await new LaunchRepository(app.database.db).release(
        jobId,
        id,
        "settled elsewhere",
        `launch:${jobId}:b0:0`,
      );
      return rows;
    });
    await execute(id);
    expect(released).toBe(false);
    expect((await draftOf(id)).status).toBe("executed");
  });

  it("launches the draft as it is when claimed, not a copy read before (item 5)", async () => {
    const { id, input } = await paidDraft(1);
    const replacement = { ...newWallet(), buyValue: "0.03" };
    await setBalance(replacement.address, parseEther("0.2"));
    const claim = LaunchRepository.prototype.claimDraft;
    vi.spyOn(LaunchRepository.prototype, "claimDraft").mockImplementation(async function (
      this: LaunchRepository,
      ...args: Parameters<typeof claim>
    ) {
      const edited = await call("PUT", `/api/draft/${id}`, {
        ...input,
        walletConfig: { ...input.walletConfig, wallets: [replacement] },
      });
      expect(edited.status).toBe(200);
      return claim.apply(this, args);
    });
    await execute(id);
    const draft = await expectHonest(id, input.deployerWallet.address);
    expect(draft.status).toBe("executed");
    const token = draft.launch?.tokenAddress as Address;
    expect(await tokensOf(token, replacement.address)).toBeGreaterThan(0n);
    expect(await tokensOf(token, input.walletConfig.wallets[0]?.address as Address)).toBe(0n);
  });
});

describe("a launch and the transaction manager", () => {
  it("sends no bundle whose wallet has another of our transactions open at the same nonce, and says why", async () => {
    const { id, input } = await paidDraft(1);
    const txm = app.transactions;
    if (!txm) throw new Error("no transaction manager");
    // A transfer from the deployer is recorded but not yet out (its process died before
    // broadcasting it): its nonce is taken.
    armFailpoint("tx.recorded", "throw", 1);
    await expect(
      txm.send([
        {
          key: `test:held-nonce:${id}`,
          purpose: "payment-refund",
          account: privateKeyToAccount(input.deployerWallet.privateKey as `0x${string}`),
          to: treasury,
          value: 1n,
          gas: 21_000n,
        },
      ]),
    ).rejects.toThrow(/failpoint/);
    const terminal: string[] = [];
    vi.spyOn(app.realtime, "emitToUser").mockImplementation(async (_user, _kind, { message }) => {
      terminal.push(message);
    });
    await execute(id);
    expect(terminal.join("\n")).toMatch(/another transaction of ours still waiting to be mined/);
    const draft = await expectHonest(id, input.deployerWallet.address);
    expect(draft.status).toBe("paid");
  });
});

describe("a delayed buy", () => {
  it("does not spin on a delay beyond what a timer can hold (item 6)", async () => {
    const { id, input } = await paidDraft(2, (wallets) => ({
      delayEnabled: true,
      delaySnipeAddress: wallets[0]?.address,
      minDelay: 600,
      maxDelay: 600,
    }));
    await execute(id);
    await app.database.db
      .update(delayedBuys)
      .set({ dueAt: new Date(Date.now() + 30 * 24 * 3600 * 1000) })
      .where(eq(delayedBuys.draftId, id));
    const claims = vi.spyOn(LaunchRepository.prototype, "claimDelayedBuy");
    const finds = vi.spyOn(LaunchRepository.prototype, "findDelayedBuy");
    const service = await restarted();
    await service.recover();
    await new Promise((resolve) => setTimeout(resolve, 500));
    service.stop();
    expect(claims.mock.calls.length + finds.mock.calls.length).toBeLessThanOrEqual(2);
    expect(await creates(input.walletConfig.wallets[0]?.address as Address)).toBe(0);
  });

  it("is not called failed at a restart while its transaction can still land (item 9)", async () => {
    const { id, input } = await paidDraft(2, (wallets) => ({
      delayEnabled: true,
      delaySnipeAddress: wallets[0]?.address,
      minDelay: 1,
      maxDelay: 1,
    }));
    const sniper = input.walletConfig.wallets[0]?.address as Address;
    const terminal: string[] = [];
    vi.spyOn(app.realtime, "emitToUser").mockImplementation(async (_user, _kind, { message }) => {
      terminal.push(message);
    });
    await execute(id);
    // The node stops mining: the buy goes out and waits in the mempool.
    await testChain.setBlockTime(0);
    try {
      const sent = async () => {
        for (let i = 0; i < 100; i++) {
          const pending = await chain.client.getTransactionCount({
            address: sniper,
            blockTag: "pending",
          });
          if (pending > 0) return;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error("the delayed buy was never sent");
      };
      await sent().catch((error) => {
        throw new Error(`${error.message}:\n${terminal.join("\n")}`);
      });
      // The process "restarts" while the buy waits to be mined.
      const said: string[] = [];
      const service = (
        await app.restarted((_user, message) => {
          said.push(message);
        })
      ).launches;
      await service.recover();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await testChain.setBlockTime();
      const row = async () =>
        (await app.database.db.select().from(delayedBuys).where(eq(delayedBuys.draftId, id)))[0];
      for (let i = 0; i < 50 && (await row())?.status === "running"; i++) await blocksPass(1);
      service.stop();
      expect((await row())?.status).toBe("succeeded");
      expect(said.filter((m) => m.startsWith("FAILED"))).toEqual([]);
      expect(terminal.filter((m) => m.startsWith("FAILED"))).toEqual([]);
    } finally {
      await testChain.setBlockTime();
    }
    expect(await creates(sniper)).toBe(1);
    const jobs = await app.database.db.select().from(launchJobs).where(eq(launchJobs.draftId, id));
    expect(jobs.map((j) => j.status)).toEqual(["succeeded"]);
  });
});
