import { parseEther, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyWallet } from "./emptyWallet.ts";
import { startTradingTestChain, type TradingTestChain } from "./startTradingTestChain.ts";

let chain: TradingTestChain;
beforeAll(async () => {
  chain = await startTradingTestChain();
});
afterAll(async () => {
  await chain?.stop();
});

const balance = (address: `0x${string}`) => chain.client.getBalance({ address });

describe("emptyWallet", () => {
  it("sends everything but the gas to a plain account, leaving exactly zero", async () => {
    const account = await chain.wallet(parseEther("1.234567890123456789"));
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const sent = await emptyWallet(chain.client, { account, to });
    expect(sent).not.toBeNull();
    expect(await balance(account.address)).toBe(0n);
    expect(await balance(to)).toBe(sent?.value);
    expect(sent?.value).toBe(
      parseEther("1.234567890123456789") - (await chain.gasPaid(sent ? [sent.hash] : [])),
    );
  });

  it("returns null and sends nothing when the balance does not cover the gas", async () => {
    const gasPrice = await chain.client.getGasPrice();
    const account = await chain.wallet(21_000n * gasPrice);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    expect(await emptyWallet(chain.client, { account, to, gasPrice })).toBeNull();
    expect(await chain.client.getTransactionCount({ address: account.address })).toBe(0);
    expect(await balance(account.address)).toBe(21_000n * gasPrice);
  });

  it("empties into a contract with the node's gas estimate, the contract receiving the value", async () => {
    const account = await chain.wallet(parseEther("0.5"));
    // Runtime code that stores msg.value: about 43,000 gas, so 21,000 would run out.
    const to = privateKeyToAccount(generatePrivateKey()).address;
    await chain.testClient.setCode({ address: to, bytecode: "0x345f5500" });
    const sent = await emptyWallet(chain.client, { account, to });
    if (!sent) throw new Error("nothing sent");
    expect(await balance(to)).toBe(sent.value);
    expect(await chain.client.getStorageAt({ address: to, slot: "0x0" })).toBe(
      toHex(sent.value, { size: 32 }),
    );
    const left = await balance(account.address);
    expect(left).toBe(parseEther("0.5") - sent.value - (await chain.gasPaid([sent.hash])));
    expect(left).toBeLessThan(5_000n * (await chain.client.getGasPrice()));
  });
});
