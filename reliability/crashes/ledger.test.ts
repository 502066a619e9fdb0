import { getFreePort, rpcBatch, type StartAnvilReturnType, startAnvil } from "@bundler/chain";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  http,
  type PublicClient,
  parseEther,
  toHex,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBooks } from "./ledger.ts";

let anvil: StartAnvilReturnType;
let client: PublicClient;

beforeAll(async () => {
  anvil = await startAnvil({
    port: await getFreePort(),
    chainId: 31337,
    blockTime: 1,
    stateFile: null,
  });
  client = createPublicClient({ transport: http(anvil.rpcUrl), cacheTime: 0 }) as PublicClient;
});
afterAll(() => anvil?.stop());

const funded = async () => {
  const account = privateKeyToAccount(generatePrivateKey());
  await rpcBatch(anvil.rpcUrl, [
    { method: "anvil_setBalance", params: [account.address, toHex(parseEther("1"))] },
  ]);
  const wallet = createWalletClient({ account, transport: http(anvil.rpcUrl) });
  const send = async (to: Address, value: bigint) => {
    const hash = await wallet.sendTransaction({ chain: null, to, value });
    await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  };
  return { address: account.address, send };
};
const fresh = () => privateKeyToAccount(generatePrivateKey()).address;

describe("a trial's books", () => {
  it("balance a transfer between declared wallets to 0 wei unaccounted, its gas counted", async () => {
    const payer = await funded();
    const payee = fresh();
    const books = await openBooks(() => client, [payer.address, payee], []);
    await payer.send(payee, parseEther("0.1"));
    const ledger = await books.close([]);
    expect(ledger.unaccounted).toBe(0n);
    expect(ledger.delta(payee)).toBe(parseEther("0.1"));
    expect(ledger.repeated).toBe(0);
  });

  it("count wei left in a wallet nobody declared as unaccounted", async () => {
    const payer = await funded();
    const stray = fresh();
    const books = await openBooks(() => client, [payer.address], []);
    await payer.send(stray, 12345n);
    const ledger = await books.close([]);
    expect(ledger.unaccounted).toBe(12345n);
  });

  it("follow money through an undeclared hop wallet that ends empty, to 0 wei unaccounted", async () => {
    const payer = await funded();
    const destination = fresh();
    const hop = privateKeyToAccount(generatePrivateKey());
    const books = await openBooks(() => client, [payer.address, destination], []);
    await payer.send(hop.address, parseEther("0.5"));
    const gasPrice = await client.getGasPrice();
    const hopWallet = createWalletClient({ account: hop, transport: http(anvil.rpcUrl) });
    const hash = await hopWallet.sendTransaction({
      chain: null,
      to: destination,
      value: parseEther("0.5") - 21_000n * gasPrice * 2n,
      gas: 21_000n,
      maxFeePerGas: gasPrice * 2n,
      maxPriorityFeePerGas: gasPrice * 2n,
    });
    await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
    const ledger = await books.close([]);
    expect(await client.getBalance({ address: hop.address })).toBe(0n);
    expect(ledger.unaccounted).toBe(0n);
  });

  it("count the same transfer sent twice as one repeated transfer", async () => {
    const payer = await funded();
    const payee = fresh();
    const books = await openBooks(() => client, [payer.address, payee], []);
    await payer.send(payee, 777n);
    await payer.send(payee, 777n);
    const ledger = await books.close([]);
    expect(ledger.repeated).toBe(1);
    expect(ledger.unaccounted).toBe(0n);
  });
});
