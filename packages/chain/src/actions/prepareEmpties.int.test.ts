import { type Address, createPublicClient, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCountingProxy } from "../dev/countingProxy.ts";
import { prepareEmpty } from "./emptyWallet.ts";
import { type PreparedEmpty, prepareEmpties } from "./prepareEmpties.ts";
import { startTradingTestChain, type TradingTestChain } from "./startTradingTestChain.ts";

let chain: TradingTestChain;
beforeAll(async () => {
  chain = await startTradingTestChain();
});
afterAll(async () => {
  await chain?.stop();
});

const fresh = (): Address => privateKeyToAccount(generatePrivateKey()).address;
const balance = (address: Address) => chain.client.getBalance({ address });

describe("prepareEmpties", () => {
  it("empties every wallet to exactly 0 wei once its transfer is mined", async () => {
    const accounts = [
      await chain.wallet(parseEther("1.000000000000000001")),
      await chain.wallet(parseEther("0.3")),
    ];
    const to = fresh();
    const empties = await prepareEmpties(chain.client, {
      from: accounts.map((a) => a.address),
      to,
    });
    for (const [i, account] of accounts.entries()) {
      const empty = empties[i] as PreparedEmpty;
      expect(empty.gas).toBe(21_000n);
      const raw = await account.signTransaction({
        type: "legacy",
        chainId: 31337,
        nonce: 0,
        gas: empty.gas,
        gasPrice: empty.gasPrice,
        ...empty.request,
      });
      const hash = await chain.client.sendRawTransaction({ serializedTransaction: raw });
      await chain.client.waitForTransactionReceipt({ hash });
    }
    expect(await balance(accounts[0]?.address as Address)).toBe(0n);
    expect(await balance(accounts[1]?.address as Address)).toBe(0n);
    expect(await balance(to)).toBe(
      empties.reduce((sum, e) => sum + (e as PreparedEmpty).request.value, 0n),
    );
  });

  it("answers a wallet with no BNB with its reason, preparing the others", async () => {
    const rich = await chain.wallet(parseEther("0.1"));
    const none = fresh();
    const empties = await prepareEmpties(chain.client, { from: [none, rich.address], to: fresh() });
    expect((empties[0] as { error: Error }).error.message).toBe(`wallet ${none} holds no BNB`);
    expect((empties[1] as PreparedEmpty).request.value).toBeGreaterThan(0n);
  });

  it("answers a wallet whose balance does not cover the transfer's gas with its reason", async () => {
    const gasPrice = await chain.client.getGasPrice();
    const dust = await chain.wallet(21_000n * gasPrice);
    const [empty] = await prepareEmpties(chain.client, {
      from: [dust.address],
      to: fresh(),
      gasPrice,
    });
    expect((empty as { error: Error }).error.message).toMatch(
      /holds .* BNB, no more than the transfer's gas/,
    );
  });

  it("prepares twenty wallets' empties in three RPC requests", async () => {
    const accounts = await Promise.all(
      Array.from({ length: 20 }, () => chain.wallet(parseEther("0.01"))),
    );
    const proxy = await startCountingProxy(chain.rpcUrl);
    try {
      const counted = createPublicClient({ transport: http(proxy.url), cacheTime: 0 });
      const empties = await prepareEmpties(counted, {
        from: accounts.map((a) => a.address),
        to: fresh(),
      });
      expect(empties.every((e) => "request" in e)).toBe(true);
      expect(proxy.seen.flatMap((s) => s.methods).sort()).toEqual([
        "eth_call",
        "eth_gasPrice",
        "eth_getCode",
      ]);
    } finally {
      await proxy.close();
    }
  });
});

describe("prepareEmpty", () => {
  it("answers one wallet's empty at its pending nonce, and null for a wallet with nothing", async () => {
    const account = await chain.wallet(parseEther("0.2"));
    const empty = await prepareEmpty(chain.client, { account, to: fresh() });
    expect(empty).toMatchObject({ nonce: 0, chainId: 31337, gas: 21_000n });
    expect(empty?.request.value).toBe(parseEther("0.2") - 21_000n * (empty?.gasPrice ?? 0n));
    const nothing = privateKeyToAccount(generatePrivateKey());
    expect(await prepareEmpty(chain.client, { account: nothing, to: fresh() })).toBeNull();
  });
});
