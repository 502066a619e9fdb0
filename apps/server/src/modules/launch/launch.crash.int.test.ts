import type { Draft } from "@bundler/shared";
import { type Address, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BSC_BLOCK_SECONDS, crashServer } from "../../test/crash-server.ts";
import { draftInput } from "../../test/drafts-api.ts";

/**
 * The real server, with its own local chain, killed (SIGKILL, at failpoints) at the moments
 * that used to spend money twice, then started again: the launch and the refund each happen
 * exactly once, and a launch that did not land leaves its draft paid.
 */
const FEE = parseEther("0.01");
const crashed = crashServer(
  "launch-crash",
  { LAUNCH_FEE_BNB: "0.01", BLOCK_TIME_SECONDS: String(BSC_BLOCK_SECONDS) },
  {
    postgres: process.env.DATABASE_URL,
  },
);
const { api, waitFor, pay, client, setBalance, signedPayment, start } = crashed;
const server = {
  stop: () => crashed.process.stop(),
  exited: () => crashed.process.exited(),
};

const draftOf = async (id: string) => (await api("GET", `/api/draft/${id}`)).body.draft as Draft;

beforeAll(() => start());
afterAll(() => crashed.remove());

/** A draft whose fee is paid and whose wallets hold enough to launch. */
const readyDraft = async () => {
  const input = draftInput(2);
  const id = (await api("POST", "/api/draft/create", input)).body.draftId as string;
  const address = (await api("POST", `/api/draft/${id}/payment`)).body.paymentAddress as string;
  await pay(address, FEE);
  await waitFor(async () => (await draftOf(id)).status === "paid", "the fee to be credited");
  await setBalance(input.deployerWallet.address, parseEther("1"));
  for (const w of input.walletConfig.wallets) await setBalance(w.address, parseEther("0.2"));
  return { id, deployer: input.deployerWallet.address };
};

describe("a server killed in the middle of a launch or a refund", () => {
  it("leaves a launch killed before its bundle went out paid, and one killed after it landed executed", async () => {
    const unsent = await readyDraft();
    await server.stop();
    await start("launch.recorded");
    expect((await api("POST", `/api/draft/${unsent.id}/execute`)).status).toBe(200);
    expect(await server.exited()).toBe("SIGKILL");
    await start();
    await waitFor(async () => (await draftOf(unsent.id)).status === "paid", "the draft released");
    expect(await client().getTransactionCount({ address: unsent.deployer })).toBe(0);

    const landed = await readyDraft();
    await server.stop();
    await start("launch.landed");
    expect((await api("POST", `/api/draft/${landed.id}/execute`)).status).toBe(200);
    expect(await server.exited()).toBe("SIGKILL");
    await start();
    await waitFor(
      async () => (await draftOf(landed.id)).status === "executed",
      "the launch recorded",
    );
    const token = (await draftOf(landed.id)).launch?.tokenAddress as Address;
    expect(await client().getCode({ address: token })).not.toBe("0x");
    expect((await api("POST", `/api/draft/${landed.id}/execute`)).status).toBe(409);

    // The draft released above launches once, now that nothing stops it.
    expect((await api("POST", `/api/draft/${unsent.id}/execute`)).status).toBe(200);
    await waitFor(async () => (await draftOf(unsent.id)).status === "executed", "the relaunch");
  }, 300_000);

  it("launches a draft again right after its launch was killed with the bundle recorded but not sent", async () => {
    const unsent = await readyDraft();
    // A quiet chain's gas price stops moving (its base fee decays to its floor): then, with no
    // token created in between, the relaunch signs some of the very transactions the killed
    // launch recorded (same wallet, nonce, call and price). Here the base fee is put at that
    // floor at once instead of after minutes of empty blocks.
    await client().request({
      method: "anvil_setNextBlockBaseFeePerGas" as never,
      params: ["0x0"] as never,
    });
    const at = await client().getBlockNumber();
    await waitFor(async () => (await client().getBlockNumber()) > at + 1n, "the base fee applied");
    await server.stop();
    await start("launch.recorded");
    expect((await api("POST", `/api/draft/${unsent.id}/execute`)).status).toBe(200);
    expect(await server.exited()).toBe("SIGKILL");
    await start();
    await waitFor(async () => (await draftOf(unsent.id)).status === "paid", "the draft released");

    // No other token was created since: the relaunch signs the same buys as the killed one.
    expect((await api("POST", `/api/draft/${unsent.id}/execute`)).status).toBe(200);
    await waitFor(
      async () => (await draftOf(unsent.id)).status !== "executing",
      "the relaunch to end",
    );
    expect((await draftOf(unsent.id)).status).toBe("executed");
  }, 300_000);

  it("sends a refund recorded just before the kill once, after the restart", async () => {
    const input = draftInput(1);
    const id = (await api("POST", "/api/draft/create", input)).body.draftId as string;
    const address = (await api("POST", `/api/draft/${id}/payment`)).body.paymentAddress as string;
    expect((await api("POST", `/api/draft/${id}/payment/cancel`)).status).toBe(200);
    await server.stop();
    await start("tx.recorded");
    // The kill at the refund's recording takes the chain along (it lives in the server's
    // process group): the payment's receipt may be read only after the restart.
    const payer = privateKeyToAccount(generatePrivateKey());
    await setBalance(payer.address, parseEther("1"));
    const payment = await signedPayment(address, FEE, payer);
    const cutOff = payment.send().catch(() => undefined);
    expect(await server.exited()).toBe("SIGKILL");
    await cutOff;
    await start();
    await payment.send();
    await waitFor(
      async () => (await draftOf(id)).refunds.some((r) => r.status === "sent"),
      "the refund mined",
    );
    const before = await client().getBlockNumber();
    await waitFor(async () => (await client().getBlockNumber()) > before + 3n, "a few blocks");
    expect(await client().getTransactionCount({ address: address as Address })).toBe(1);
    const refunds = (await draftOf(id)).refunds;
    expect(refunds).toHaveLength(1);
    expect(refunds[0]?.to).toBe(payer.address);
  }, 300_000);
});
