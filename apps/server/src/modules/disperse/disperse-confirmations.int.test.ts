import { sql } from "drizzle-orm";
import { type Address, createWalletClient, type Hex, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { chainTxs } from "../../db/schema.ts";
import { fresh, useDisperseTestbed } from "./disperse.test-support.ts";

/**
 * Issue 27: a dispersal moves on (and completes) on its transfers' "mined", and "mined" waits
 * for two blocks on top of the receipt: a block the chain takes back never completed one.
 */
const testbed = useDisperseTestbed();
const { create, status, untilStatus, balance, rpc } = testbed;

describe("a dispersal's transfer whose block the chain takes back", () => {
  it("completes only once its transfer is two blocks deep, and delivers once when that block is taken back", async () => {
    const { app, testChain } = testbed;
    const destination = fresh();
    const dispersal = await create([destination], ["0.01"], false);
    const account = privateKeyToAccount(generatePrivateKey());
    await rpc("anvil_setBalance", [account.address, `0x${parseEther("1").toString(16)}`]);
    const wallet = createWalletClient({ account, transport: http(testChain.local.rpcUrl) });
    const engine = app.disperseEngine;
    if (!engine) throw new Error("no engine");
    const sent = () =>
      app.database.db
        .select()
        .from(chainTxs)
        .where(sql`lower(${chainTxs.from}) = ${dispersal.receiver.toLowerCase()}`);

    await testChain.setBlockTime(0);
    try {
      await wallet.sendTransaction({
        chain: null,
        to: dispersal.receiver as Address,
        value: parseEther(dispersal.amount),
      });
      // The payment's block and two on top: funded beyond doubt.
      for (let block = 0; block < 3; block++) await testChain.mine();
      for (let pass = 0; pass < 10 && (await sent()).length === 0; pass++) await engine.tick();
      const [transfer] = await sent();
      expect(transfer?.to?.toLowerCase()).toBe(destination.toLowerCase());
      const { result: snapshot } = (await (await rpc("evm_snapshot", [])).json()) as {
        result: string;
      };
      // The transfer's block, and one on top of it.
      await testChain.mine();
      await testChain.mine();
      expect(await balance(destination)).toBe(parseEther("0.01"));
      await app.transactions?.reconcile();
      await engine.tick();
      expect((await status(dispersal.receiver)).status).not.toBe("completed");
      await rpc("evm_revert", [snapshot]);
      await rpc("anvil_dropTransaction", [transfer?.txHash as Hex]);
      expect(await balance(destination)).toBe(0n);
    } finally {
      await testChain.setBlockTime();
    }

    await untilStatus(dispersal.receiver, "completed");
    expect(await balance(destination)).toBe(parseEther("0.01"));
  }, 120_000);
});
