import { launchToken, prepareBuy, rpcBatch } from "@bundler/chain";
import type { TokenInfo } from "@bundler/shared";
import { eq, sql } from "drizzle-orm";
import {
  type Address,
  erc20Abi,
  type Hex,
  type LocalAccount,
  type PublicClient,
  parseEther,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { drafts, launches } from "../db/schema.ts";
import { createArgsFor } from "../modules/launch/create-args.ts";
import type { TestApp } from "./app.ts";
import type { TestChain } from "./chain.ts";
import { apiCaller, draftInput } from "./drafts-api.ts";

export interface LaunchedBundle {
  token: Address;
  draftId: string;
  /** Every wallet of the draft, in its order (holders and those that bought nothing). */
  wallets: LocalAccount[];
  deployer: LocalAccount;
}

/**
 * A launched bundle as the wallet manager sees it, without the payment and launch jobs: a draft
 * saved through the API (its keys in the vault), its token launched on the test chain by the
 * deployer with each wallet's buy (wallets listed in `idle` buy nothing), and the launch recorded
 * as the launch engine records it.
 */
export const launchBundle = async (
  app: TestApp,
  testChain: TestChain,
  key: string,
  {
    wallets = 3,
    idle = [],
    buy = "0.05",
    preSale = "0.05",
  }: { wallets?: number; idle?: number[]; buy?: string; preSale?: string } = {},
): Promise<LaunchedBundle> => {
  const input = draftInput(wallets);
  input.tokenInfo.preSale = preSale;
  const created = await apiCaller(
    () => app,
    () => key,
  )("POST", "/api/draft/create", input);
  if (created.status !== 200) throw new Error(`draft create: ${JSON.stringify(created.body)}`);
  const draftId = created.body.draftId as string;
  const accounts = input.walletConfig.wallets.map((w) => privateKeyToAccount(w.privateKey));
  const deployer = privateKeyToAccount(input.deployerWallet.privateKey);
  await setBalances(testChain, [
    [deployer.address, parseEther("5")],
    ...accounts.map((a): [Address, bigint] => [a.address, parseEther("1")]),
  ]);

  const chain = testChain.chain;
  const { createArg, signature } = await createArgsFor(chain, {
    creator: deployer,
    tokenInfo: input.tokenInfo as TokenInfo,
    say: () => {},
  });
  const report = await launchToken({
    rpcUrl: chain.rpcUrl,
    chainId: chain.chainId,
    launchpad: chain.launchpad as Address,
    helper: chain.trade?.helper as Address,
    builders: chain.builders,
    creator: deployer,
    createArg,
    signature,
    preSale: parseEther(preSale),
    buyers: accounts
      .filter((_, i) => !idle.includes(i))
      .map((account) => ({ account, funds: parseEther(buy) })),
    tipPayer: deployer,
    tip: parseEther("0.001"),
  });
  const failed = report.bundles.find((b) => b.status !== "included");
  if (failed) throw new Error(`launch bundle ${failed.index} did not land`);
  // The create's block, as the launch engine records it (the P&L ledger starts there).
  const first = report.bundles[0];
  const blockNumber =
    first?.status === "included" ? first.blockNumber : await chain.client.getBlockNumber();
  const ownerId = (await app.auth.authenticate(key))?.id as string;
  await app.database.db.insert(launches).values({
    ownerId,
    draftId,
    tokenAddress: report.token,
    ticker: input.tokenInfo.symbol,
    name: input.tokenInfo.name,
    image: "",
    wallets: accounts.map((a) => a.address),
    blockNumber,
  });
  await app.database.db
    .update(drafts)
    .set({ status: "executed", updatedAt: sql`now()` })
    .where(eq(drafts.id, draftId));
  return { token: report.token, draftId, wallets: accounts, deployer };
};

export const setBalances = async (testChain: TestChain, entries: Array<[Address, bigint]>) => {
  const answers = await rpcBatch(
    testChain.local.rpcUrl,
    entries.map(([address, value]) => ({
      method: "anvil_setBalance",
      params: [address, `0x${value.toString(16)}`],
    })),
  );
  const refused = answers.find((a) => a.error);
  if (refused) throw new Error(`anvil_setBalance: ${refused.error?.message}`);
};

export const tokenBalance = (testChain: TestChain, token: Address, owner: Address) =>
  testChain.chain.client.readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [owner],
  });

/** A fresh wallet's buy big enough to fill the curve: the token graduates to the DEX. */
export const graduate = async (testChain: TestChain, token: Address): Promise<void> => {
  const whale = privateKeyToAccount(generatePrivateKey());
  const funds = testChain.chain.curve.maxFunds + parseEther("2");
  await setBalances(testChain, [[whale.address, funds + parseEther("1")]]);
  const chain = testChain.chain;
  const prepared = await prepareBuy(chain.client, {
    account: whale,
    launchpad: chain.launchpad as Address,
    ...(chain.trade as NonNullable<typeof chain.trade>),
    token,
    funds,
  });
  const hash = await sendPreparedBuy(chain.client, whale, prepared);
  const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 200 });
  if (receipt.status !== "success") throw new Error("the graduating buy reverted");
};

/**
 * Signs a prepared buy (legacy, at its nonce) and sends it: its hash, without waiting for the
 * receipt (a test whose server may take the chain down with it reads the receipt itself).
 */
export const sendPreparedBuy = async (
  client: Pick<PublicClient, "sendRawTransaction">,
  account: LocalAccount,
  prepared: Awaited<ReturnType<typeof prepareBuy>>,
): Promise<Hex> =>
  client.sendRawTransaction({
    serializedTransaction: await account.signTransaction({
      type: "legacy",
      chainId: prepared.chainId,
      nonce: prepared.nonce,
      gas: prepared.gas,
      gasPrice: prepared.gasPrice,
      ...prepared.request,
    }),
  });
