import { taxTokenConfigOf } from "@bundler/contracts";
import { type Address, type Hash, type LocalAccount, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buyToken } from "./buyToken.ts";
import { prepareBump } from "./prepareBump.ts";
import { startTradingTestChain, type TradingTestChain } from "./startTradingTestChain.ts";

let chain: TradingTestChain;
beforeAll(async () => {
  chain = await startTradingTestChain();
});
afterAll(async () => {
  await chain?.stop();
});

/** Signs the bump's calls at consecutive nonces and mines them in ONE block; the receipts' statuses. */
const landBump = async (
  account: LocalAccount,
  calls: Awaited<ReturnType<typeof prepareBump>>["calls"],
  gasPrice: bigint,
) => {
  await chain.setBlockTime(0);
  const hashes: Hash[] = [];
  try {
    let nonce = await chain.client.getTransactionCount({ address: account.address });
    for (const call of calls) {
      const raw = await account.signTransaction({
        type: "legacy",
        chainId: 31337,
        nonce: nonce++,
        gas: call.gas,
        gasPrice,
        ...call.request,
      });
      hashes.push(await chain.client.sendRawTransaction({ serializedTransaction: raw }));
    }
    await chain.testClient.mine({ blocks: 1 });
  } finally {
    await chain.setBlockTime();
  }
  return Promise.all(
    hashes.map(async (hash) => (await chain.client.getTransactionReceipt({ hash })).status),
  );
};

describe("prepareBump", () => {
  it("bumps a graduated tax token on the DEX: it sells what the buy left after the tax (amount × feeRate / 10000, tax guide §4) through the fee-on-transfer swap, and the wallet ends holding none", async () => {
    const { launchpad, helper, router, weth } = chain.contracts;
    const token: Address = await chain.createToken({
      tax: taxTokenConfigOf({
        feeRate: 5,
        burnRate: 50,
        divideRate: 0,
        liquidityRate: 50,
        recipientRate: 0,
        recipientAddress: "",
        minSharing: 100000,
      }),
    });
    await buyToken(chain.client, {
      launchpad,
      helper,
      router,
      weth,
      account: await chain.wallet(),
      token,
      funds: parseEther("2"),
    });
    const bumper = await chain.wallet();
    const gasPrice = await chain.client.getGasPrice();
    const bump = await prepareBump(chain.client, {
      wallet: bumper.address,
      launchpad,
      helper,
      router,
      weth,
      token,
      funds: parseEther("0.05"),
      gasPrice,
    });
    expect(bump.route).toBe("dex");
    expect(bump.returned).toBeGreaterThan(0n);
    const statuses = await landBump(bumper, bump.calls, gasPrice);
    expect(statuses).toEqual(bump.calls.map(() => "success"));
    expect(await chain.tokenBalance(token, bumper.address)).toBe(0n);
  });
});
