import { type Address, createWalletClient, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { TestApp } from "./app.ts";
import type { TestChain } from "./chain.ts";

export type Method = "GET" | "POST" | "PUT" | "DELETE";

/** Calls the app as `key` (or `as`), answering the status and the parsed body. */
export const apiCaller =
  (app: () => TestApp, key: () => string) =>
  async (method: Method, url: string, payload?: unknown, as?: string) => {
    const response = await app().server.inject({
      method,
      url,
      headers: { "x-auth-key": as ?? key() },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  };

export const newWallet = () => {
  const privateKey = generatePrivateKey();
  return { address: privateKeyToAccount(privateKey).address, privateKey };
};

/** A 1×1 PNG: a logo four.meme (and its fake) accepts. */
export const PNG_LOGO =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

export type ExtraConfig = (wallets: Array<{ address: Address }>) => Record<string, unknown>;

/** A complete launch draft: token info with a logo, a deployer, `walletCount` buying wallets. */
export const draftInput = (walletCount = 3, extraConfig: ExtraConfig = () => ({})) => {
  const wallets = Array.from({ length: walletCount }, (_, i) => ({
    ...newWallet(),
    buyValue: `0.0${i + 1}`,
  }));
  return {
    tokenInfo: {
      name: "Bundle Moon",
      symbol: "BMOON",
      description: "launched by the test",
      image: PNG_LOGO,
      preSale: "0.05",
    },
    deployerWallet: newWallet(),
    walletConfig: { wallets, tip: "0.001", ...extraConfig(wallets) },
  };
};

/** A funded outside wallet that pays to an address and answers the gas it spent. */
export const payerOn = async (testChain: TestChain) => {
  const account = privateKeyToAccount(generatePrivateKey());
  await testChain.rpc("anvil_setBalance", [account.address, `0x${parseEther("10").toString(16)}`]);
  const wallet = createWalletClient({ account, transport: http(testChain.local.rpcUrl) });
  const pay = async (to: Address, value: bigint) => {
    const hash = await wallet.sendTransaction({ chain: null, to, value });
    const receipt = await testChain.chain.client.waitForTransactionReceipt({
      hash,
      pollingInterval: 200,
    });
    return {
      gas: receipt.gasUsed * receipt.effectiveGasPrice,
      blockNumber: receipt.blockNumber,
      hash,
    };
  };
  return { account, pay };
};
