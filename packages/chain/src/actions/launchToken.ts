import { createTokenValue, LaunchpadManagerArtifact } from "@bundler/contracts";
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  formatEther,
  type Hex,
  http,
  keccak256,
  type LocalAccount,
} from "viem";
import { type BundleRefusal, BundleRejectedError, ChainError } from "../errors.ts";
import type { BuilderEndpoint } from "../profiles.ts";
import { getLaunchFees } from "./getLaunchFees.ts";
import { checkFunds, pendingNonces } from "./launchChecks.ts";
import { type BundlePlan, planBundles } from "./planBundles.ts";
import { withMargin } from "./signedWrite.ts";
import { type SimulatedBuy, simulateLaunch } from "./simulateLaunch.ts";
import { type BuilderAnswer, submitBundle } from "./submitBundle.ts";
import { minimumAfterSlippage } from "./tradeRoute.ts";
import { waitForBundle } from "./waitForBundle.ts";

export interface LaunchTokenParameters {
  rpcUrl: string;
  chainId: number;
  launchpad: Address;
  /** TokenManagerHelper3 (or the local helper): every buy is priced with its `tryBuy`. */
  helper: Address;
  builders: readonly BuilderEndpoint[];
  creator: LocalAccount;
  /** `createToken`'s bytes: from four.meme's API on mainnet, from our launch signer locally. */
  createArg: Hex;
  signature: Hex;
  /**
   * The creator's own first buy, BNB spent on the curve (the args' preSale); the launchpad's
   * trading fee on it comes on top, in the create's value.
   */
  preSale: bigint;
  /**
   * A creation fee listed elsewhere (four.meme's API config `deployCost`), checked against the
   * launchpad's own `_launchFee()`: a difference is said as a WARNING step. The create always
   * sends what the launchpad asks.
   */
  listedLaunchFee?: bigint | null;
  buyers: ReadonlyArray<{ account: LocalAccount; funds: bigint }>;
  tipPayer: LocalAccount;
  tip: bigint;
  gasPrice?: bigint;
  /** Slippage allowed on each buy, in basis points (default 500 = 5%). */
  slippageBps?: bigint;
  blocksAhead?: bigint;
  /** How long each builder has to answer a bundle (default 15 s). */
  submitTimeoutMs?: number;
  /** Each step, in words; awaited, so a caller may record a step before the launch goes on. */
  onStep?: (message: string) => void | Promise<void>;
  /**
   * Called with each bundle once it is signed and before it is sent (awaited): a caller records
   * it here, so that whatever happens next it can ask the chain whether it landed. When it
   * throws, the bundle is not sent.
   */
  onBundle?: (bundle: SignedBundle) => Promise<void>;
  /**
   * Called with each bundle's builder answers once every builder answered (`submitBundle`'s
   * `onAnswers`), with the head read before it was sent. For statistics: it must not throw.
   */
  onAnswers?: (sent: {
    index: number;
    head: bigint;
    maxBlockNumber: bigint;
    answers: BuilderAnswer[];
  }) => void;
}

export interface SignedBundle {
  index: number;
  /** The bundle's transactions in order (the create first in bundle 0), without the tips. */
  txs: Hex[];
  /** What each transaction does ("the create", "the buy by wallet 0x…"). */
  roles: string[];
  /** The last block it may land in. */
  maxBlockNumber: bigint;
}

export type LaunchBundleReport = {
  index: number;
  buyers: Address[];
  /** The builders this bundle was sent to (those whose cap it fits). */
  sentTo: string[];
  /** Builders that refused it, with their reasons. */
  refusals: BundleRefusal[];
} & (
  | { status: "included"; blockNumber: bigint; builder: string | null }
  | { status: "failed"; reason: string }
);

export interface LaunchTokenReturnType {
  token: Address;
  /**
   * The create's value, `_launchFee() + preSale + preSale × _tradingFeeRate() / 10000` as the
   * launchpad said them before it was signed.
   */
  createValue: bigint;
  bundles: LaunchBundleReport[];
  /** The buyers whose buys landed in the create's block. */
  atomicWithCreate: Address[];
  /** Tokens the node's simulation gave the creator and each buyer, in bundle order. */
  quoted: Array<{ address: Address; amount: bigint }>;
}

type Priced = SimulatedBuy;

/**
 * Creates a token and buys it from many wallets: create + creator buy + one buy per
 * wallet + tip, in one bundle sent to every builder whose cap it fits. The create sends what
 * four.meme's create guide says, read from the launchpad now: `_launchFee() + preSale +
 * preSale × _tradingFeeRate() / 10000`. Every buy is priced by the node (the exact bundle
 * run with eth_simulateV1, each buy after the helper's `tryBuy`, whose `amountMsgValue` and
 * `amountFunds` it sends), so the launchpad's own curve and fee plan set each minAmount. More
 * wallets than a bundle holds are split: only the first bundle, with the create, is atomic
 * with it; each later bundle is priced, given fresh nonces and signed only once the one
 * before it landed or failed.
 *
 * @example
 * const report = await launchToken({ rpcUrl, chainId, launchpad, helper, builders, creator, createArg, signature, preSale, buyers, tipPayer, tip });
 */
export const launchToken = async (
  params: LaunchTokenParameters,
): Promise<LaunchTokenReturnType> => {
  const say = async (message: string) => {
    await params.onStep?.(message);
  };
  const client = createPublicClient({ transport: http(params.rpcUrl), cacheTime: 0 });
  const plan = planBundles(params.buyers.length, params.builders);
  const createData = encodeFunctionData({
    abi: LaunchpadManagerArtifact.abi,
    functionName: "createToken",
    args: [params.createArg, params.signature],
  });
  const fees = await getLaunchFees(client, { launchpad: params.launchpad });
  const createValue = createTokenValue({ ...fees, preSale: params.preSale });
  await say(
    `PASSED launch fee read from the launchpad: ${formatEther(fees.launchFee)} BNB, and ${Number(fees.tradingFeeRate) / 100}% on the creator's ${formatEther(params.preSale)} BNB buy: the create sends ${formatEther(createValue)} BNB`,
  );
  const listed = params.listedLaunchFee;
  if (listed != null && listed !== fees.launchFee)
    await say(
      `WARNING four.meme's config lists a ${formatEther(listed)} BNB creation fee but the launchpad asks ${formatEther(fees.launchFee)} BNB: the create sends what the launchpad asks`,
    );
  const [gasPrice, simulation] = await Promise.all([
    params.gasPrice ?? client.getGasPrice(),
    simulateLaunch(client, {
      launchpad: params.launchpad,
      helper: params.helper,
      create: { from: params.creator.address, data: createData, value: createValue },
      buys: params.buyers.map((buyer) => ({ from: buyer.account.address, funds: buyer.funds })),
    }),
  ]);
  const { token } = simulation;
  await say(`PASSED simulation: the token will be ${token}`);

  const createGas = withMargin(simulation.create?.gas ?? 0n);
  await checkFunds(client, [
    { address: params.creator.address, need: createValue + createGas * gasPrice },
    ...buyerNeeds(params, 0, params.buyers.length, simulation.buys, gasPrice),
    {
      address: params.tipPayer.address,
      need: BigInt(plan.length) * (params.tip + 21_000n * gasPrice),
    },
  ]);
  await say("PASSED balance check: every wallet holds its buy and gas, the creator its fee");

  const report: LaunchTokenReturnType = {
    token,
    createValue,
    bundles: [],
    atomicWithCreate: [],
    quoted: [
      { address: params.creator.address, amount: simulation.create?.amount ?? 0n },
      ...params.buyers.map((buyer, i) => ({
        address: buyer.account.address,
        amount: simulation.buys[i]?.amount ?? 0n,
      })),
    ],
  };
  const create = { data: createData, value: createValue, gas: createGas };
  for (const [index, bundle] of plan.entries()) {
    const buyers = params.buyers.slice(bundle.from, bundle.to).map((b) => b.account.address);
    const sentTo = bundle.builders.map((builder) => builder.name);
    const refusals: BundleRefusal[] = [];
    try {
      const priced =
        index === 0
          ? simulation.buys.slice(bundle.from, bundle.to)
          : await priceLaterBundle(client, params, bundle, token, gasPrice);
      for (const [i, quote] of priced.entries()) {
        const entry = report.quoted[bundle.from + i + 1];
        if (entry) entry.amount = quote.amount;
      }
      const { txs, roles, tipNonce } = await signBundle(params, bundle, {
        token,
        priced,
        gasPrice,
        create: index === 0 ? create : null,
      });
      const head = await client.getBlockNumber();
      const maxBlockNumber = head + (params.blocksAhead ?? 5n);
      let sentAnswers: BuilderAnswer[] = [];
      await params.onBundle?.({ index, txs, roles, maxBlockNumber });
      await say(
        `Sending bundle ${index + 1}/${plan.length} (${txs.length + 1} transactions) to ${sentTo.join(", ")}`,
      );
      const { accepted, rejected } = await submitBundle({
        builders: bundle.builders,
        txs,
        roles,
        maxBlockNumber,
        ...(params.submitTimeoutMs ? { timeoutMs: params.submitTimeoutMs } : {}),
        onAnswers: (answers) => {
          sentAnswers = answers;
          params.onAnswers?.({ index, head, maxBlockNumber, answers });
        },
        tip: {
          account: params.tipPayer,
          value: params.tip,
          nonce: tipNonce,
          gasPrice,
          chainId: params.chainId,
        },
      }).catch((error: unknown) => {
        if (error instanceof BundleRejectedError) refusals.push(...error.reasons);
        throw error;
      });
      refusals.push(...rejected);
      for (const refusal of rejected)
        await say(
          `ERROR builder ${refusal.builder} refused bundle ${index + 1}: ${refusal.reason}`,
        );
      // Every variant a builder may hold (a silent one too): the tip that lands names the builder.
      const tips = sentAnswers.filter((a) => a.answer === "accepted" || a.answer === "silent");
      const landed = await waitForBundle(params.rpcUrl, {
        txHash: keccak256(txs[txs.length - 1] as Hex),
        tips: tips.length > 0 ? tips : accepted,
        maxBlockNumber,
      });
      report.bundles.push({ index, status: "included", ...landed, buyers, sentTo, refusals });
      if (index === 0) report.atomicWithCreate = buyers;
      await say(
        `SUCCESS bundle ${index + 1}/${plan.length} included in block ${landed.blockNumber}${landed.builder ? ` by ${landed.builder}` : ""}`,
      );
    } catch (error) {
      if (index === 0) throw error;
      const reason = error instanceof ChainError ? error.shortMessage : (error as Error).message;
      report.bundles.push({ index, status: "failed", reason, buyers, sentTo, refusals });
      await say(`FAILED bundle ${index + 1}/${plan.length}: ${reason}`);
    }
  }
  return report;
};

/** What each buyer in [from, to) must hold: the value its buy sends and the gas of it. */
const buyerNeeds = (
  params: LaunchTokenParameters,
  from: number,
  to: number,
  priced: readonly Priced[],
  gasPrice: bigint,
) =>
  params.buyers.slice(from, to).map((buyer, i) => ({
    address: buyer.account.address,
    need: (priced[i]?.msgValue ?? buyer.funds) + withMargin(priced[i]?.gas ?? 0n) * gasPrice,
  }));

/**
 * A bundle after the first: the token exists and earlier bundles landed or failed, so its
 * buys are priced again on the chain as it is now, and its wallets checked again.
 */
const priceLaterBundle = async (
  client: Parameters<typeof simulateLaunch>[0],
  params: LaunchTokenParameters,
  bundle: BundlePlan,
  token: Address,
  gasPrice: bigint,
): Promise<Priced[]> => {
  const buyers = params.buyers.slice(bundle.from, bundle.to);
  const { buys } = await simulateLaunch(client, {
    launchpad: params.launchpad,
    helper: params.helper,
    token,
    buys: buyers.map((buyer) => ({ from: buyer.account.address, funds: buyer.funds })),
  });
  await checkFunds(client, [
    ...buyerNeeds(params, bundle.from, bundle.to, buys, gasPrice),
    { address: params.tipPayer.address, need: params.tip + 21_000n * gasPrice },
  ]);
  return buys;
};

/**
 * Signs one bundle with nonces read now, handed out in the order the chain will execute
 * the transactions (one account may sign several: the deployer paying the tip, say).
 */
const signBundle = async (
  params: LaunchTokenParameters,
  bundle: BundlePlan,
  context: {
    token: Address;
    priced: readonly Priced[];
    gasPrice: bigint;
    create: { data: Hex; value: bigint; gas: bigint } | null;
  },
): Promise<{ txs: Hex[]; roles: string[]; tipNonce: number }> => {
  const buyers = params.buyers.slice(bundle.from, bundle.to);
  const nonces = await pendingNonces(params.rpcUrl, [
    ...(context.create ? [params.creator.address] : []),
    ...buyers.map((buyer) => buyer.account.address),
    params.tipPayer.address,
  ]);
  const take = (address: Address) => {
    const key = address.toLowerCase();
    const nonce = nonces.get(key) ?? 0;
    nonces.set(key, nonce + 1);
    return nonce;
  };
  const common = { type: "legacy", chainId: params.chainId, gasPrice: context.gasPrice } as const;
  const txs: Hex[] = [];
  const roles: string[] = [];
  if (context.create) {
    txs.push(
      await params.creator.signTransaction({
        ...common,
        to: params.launchpad,
        ...context.create,
        nonce: take(params.creator.address),
      }),
    );
    roles.push("the create");
  }
  for (const [i, buyer] of buyers.entries()) {
    const quote = context.priced[i];
    const minAmount = minimumAfterSlippage(quote?.amount ?? 0n, params.slippageBps ?? 500n);
    txs.push(
      await buyer.account.signTransaction({
        ...common,
        to: params.launchpad,
        value: quote?.msgValue ?? buyer.funds,
        nonce: take(buyer.account.address),
        gas: withMargin(quote?.gas ?? 0n),
        data: encodeFunctionData({
          abi: LaunchpadManagerArtifact.abi,
          functionName: "buyTokenAMAP",
          args: [context.token, quote?.funds ?? buyer.funds, minAmount],
        }),
      }),
    );
    roles.push(`the buy by wallet ${buyer.account.address}`);
  }
  return { txs, roles, tipNonce: take(params.tipPayer.address) };
};
