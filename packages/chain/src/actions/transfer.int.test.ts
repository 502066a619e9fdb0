import { parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InsufficientFundsError, RevertError } from "../errors.ts";
import { startTradingTestChain, type TradingTestChain } from "./startTradingTestChain.ts";
import { transfer } from "./transfer.ts";

let chain: TradingTestChain;
beforeAll(async () => {
  chain = await startTradingTestChain();
});
afterAll(async () => {
  await chain?.stop();
});

const newAddress = () => privateKeyToAccount(generatePrivateKey()).address;

describe("transfer", () => {
  it("sends the value for exactly 21,000 gas at the given gas price", async () => {
    const account = await chain.wallet(parseEther("1"));
    const to = newAddress();
    const gasPrice = 2_000_000_000n;
    const { hash, gasCost } = await transfer(chain.client, {
      account,
      to,
      value: parseEther("0.4"),
      gasPrice,
    });
    expect(gasCost).toBe(21_000n * gasPrice);
    expect(await chain.gasPaid([hash])).toBe(gasCost);
    expect(await chain.client.getBalance({ address: to })).toBe(parseEther("0.4"));
    expect(await chain.client.getBalance({ address: account.address })).toBe(
      parseEther("0.6") - gasCost,
    );
  });

  it("refuses when the balance does not cover value and gas, naming the shortfall in BNB", async () => {
    const account = await chain.wallet(parseEther("1"));
    const send = transfer(chain.client, {
      account,
      to: newAddress(),
      value: parseEther("1"),
      gasPrice: 1_000_000_000n,
    });
    await expect(send).rejects.toThrow(InsufficientFundsError);
    await expect(send).rejects.toThrow(
      `insufficient balance: wallet ${account.address} needs 0.000021 BNB more`,
    );
    expect(await chain.client.getTransactionCount({ address: account.address })).toBe(0);
  });

  it("reports a contract that refuses BNB as a revert, sending nothing", async () => {
    const account = await chain.wallet(parseEther("1"));
    const to = newAddress();
    await chain.testClient.setCode({ address: to, bytecode: "0x5f5ffd" });
    const send = transfer(chain.client, { account, to, value: parseEther("0.1") });
    await expect(send).rejects.toThrow(RevertError);
    await expect(send).rejects.toThrow("transfer: reverted: the recipient contract refuses BNB");
    expect(await chain.client.getTransactionCount({ address: account.address })).toBe(0);
  });
});
