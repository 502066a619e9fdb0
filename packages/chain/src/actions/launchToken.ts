import { type CurveState, LaunchpadManagerArtifact, quoteBuyWithFunds } from "@bundler/contracts";
import {
  type Address,
  createPublicClient,
  decodeEventLog,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  http,
  keccak256,
  type LocalAccount,
} from "viem";
import { ChainError, InsufficientFundsError } from "../errors.ts";
import type { BuilderEndpoint } from "../profiles.ts";
import { getBalances } from "./getBalances.ts";
import { rpcBatch } from "./rpcBatch.ts";
import { submitBundle } from "./submitBundle.ts";
import { waitForBundle } from "./waitForBundle.ts";

export interface LaunchTokenParameters {
  rpcUrl: string;
  chainId: number;
  launchpad: Address;
  builders: readonly BuilderEndpoint[];
  creator: LocalAccount;
  /** `createToken`'s bytes: from four.meme's API on mainnet, from our launch signer locally. */
  createArg: Hex;
  signature: Hex;
  launchFee: bigint;
  /** The creator's own first buy (BNB, fee included). */
  preSale: bigint;
  buyers: ReadonlyArray<{ account: LocalAccount; funds: bigint }>;
  tipPayer: LocalAccount;
  tip: bigint;
  /** The launchpad's curve settings, to quote every buy before sending. */
  curve: Omit<CurveState, "offers">;
  gasPrice?: bigint;
  /** Slippage allowed on each buy, in basis points (default 500 = 5%). */
  slippageBps?: bigint;
  blocksAhead?: bigint;
  onStep?: (message: string) => void;
}

export interface LaunchTokenReturnType {
  token: Address;
  bundles: Array<
    | {
        index: number;
        status: "included";
        blockNumber: bigint;
        builder: string | null;
        buyers: Address[];
      }
    | { index: number; status: "failed"; reason: string; buyers: Address[] }
  >;
  /** The buyers whose buys landed in the create's block. */
  atomicWithCreate: Address[];
  /** Tokens each buyer (and the creator) was quoted, in bundle order. */
  quoted: Array<{ address: Address; amount: bigint }>;
}

const BUY_GAS = 300_000n;
const CREATE_GAS_FALLBACK = 1_200_000n;
/** The buy that fills the curve also creates the DEX pair and adds liquidity. */
const GRADUATING_BUY_GAS = 6_000_000n;

/**
 * Creates a token and buys it from many wallets: create + creator buy + one buy per
 * wallet + tip, in one bundle sent to every builder. More wallets than a bundle holds
 * are split: only the first bundle, with the create, is atomic with it.
 *
 * @example
 * const report = await launchToken({ rpcUrl, chainId, launchpad, builders, creator, createArg, signature, launchFee, preSale, buyers, tipPayer, tip, curve });
 */
export const launchToken = async (
  params: LaunchTokenParameters,
): Promise<LaunchTokenReturnType> => {
  const say = params.onStep ?? (() => {});
  const client = createPublicClient({ transport: http(params.rpcUrl), cacheTime: 0 });
  const abi = LaunchpadManagerArtifact.abi;
  const createData = encodeFunctionData({
    abi,
    functionName: "createToken",
    args: [params.createArg, params.signature],
  });
  const createValue = params.launchFee + params.preSale;

  const token = await simulateCreate(client, params, createData, createValue);
  say(`PASSED simulation: the token will be ${token}`);

  const quotes = quoteBuys(params);
  const gasPrice = params.gasPrice ?? (await client.getGasPrice());
  // An unfunded creator cannot be estimated: assume a generous create so the funds check
  // below names the shortfall instead of the node's error.
  const createGas = await client
    .estimateGas({
      account: params.creator.address,
      to: params.launchpad,
      data: createData,
      value: createValue,
    })
    .then((gas) => (gas * 12n) / 10n)
    .catch(() => CREATE_GAS_FALLBACK);

  const cap = Math.min(...params.builders.map((builder) => builder.maxTxs));
  if (cap < 3)
    throw new ChainError(`bundles of ${cap} transactions cannot hold a create, a buy and a tip`);
  const groups = splitBuyers(params.buyers.length, cap);

  await checkFunds(client, [
    { address: params.creator.address, need: createValue + createGas * gasPrice },
    ...params.buyers.map((buyer, i) => ({
      address: buyer.account.address,
      need: buyer.funds + (quotes[i + 1]?.fills ? GRADUATING_BUY_GAS : BUY_GAS) * gasPrice,
    })),
    {
      address: params.tipPayer.address,
      need: BigInt(groups.length) * (params.tip + 21_000n * gasPrice),
    },
  ]);

  say("PASSED balance check: every wallet holds its buy and gas, the creator its fee");

  // Nonces are handed out in the order the chain will execute the transactions, so one
  // account may sign several of them (the deployer paying the tip, say).
  const nonces = await pendingNonces(params.rpcUrl, [
    params.creator.address,
    ...params.buyers.map((b) => b.account.address),
    params.tipPayer.address,
  ]);
  const take = (address: Address) => {
    const key = address.toLowerCase();
    const nonce = nonces.get(key) ?? 0;
    nonces.set(key, nonce + 1);
    return nonce;
  };
  const createNonce = take(params.creator.address);
  const buyNonces: number[] = [];
  const tipNonces: number[] = [];
  for (const [from, to] of groups) {
    for (let i = from; i < to; i++)
      buyNonces.push(take(params.buyers[i]?.account.address as Address));
    tipNonces.push(take(params.tipPayer.address));
  }

  const createTx = await params.creator.signTransaction({
    type: "legacy",
    chainId: params.chainId,
    to: params.launchpad,
    data: createData,
    value: createValue,
    nonce: createNonce,
    gas: createGas,
    gasPrice,
  });
  const buyTxs = await Promise.all(
    params.buyers.map((buyer, i) => {
      const quote = quotes[i + 1];
      const minAmount =
        ((quote?.amount ?? 0n) * (10_000n - (params.slippageBps ?? 500n))) / 10_000n;
      return buyer.account.signTransaction({
        type: "legacy",
        chainId: params.chainId,
        to: params.launchpad,
        value: buyer.funds,
        nonce: buyNonces[i] ?? 0,
        gas: quote?.fills ? GRADUATING_BUY_GAS : BUY_GAS,
        gasPrice,
        data: encodeFunctionData({
          abi,
          functionName: "buyTokenAMAP",
          args: [token, buyer.funds, minAmount],
        }),
      });
    }),
  );

  const report: LaunchTokenReturnType = {
    token,
    bundles: [],
    atomicWithCreate: [],
    quoted: [params.creator.address, ...params.buyers.map((b) => b.account.address)].map(
      (address, i) => ({
        address,
        amount: quotes[i]?.amount ?? 0n,
      }),
    ),
  };
  for (const [index, [from, to]] of groups.entries()) {
    const buyers = params.buyers.slice(from, to).map((b) => b.account.address);
    const txs = [...(index === 0 ? [createTx] : []), ...buyTxs.slice(from, to)];
    const head = await client.getBlockNumber();
    const maxBlockNumber = head + (params.blocksAhead ?? 5n);
    try {
      say(
        `Sending bundle ${index + 1}/${groups.length} (${txs.length + 1} transactions) to ${params.builders.map((b) => b.name).join(", ")}`,
      );
      const { accepted, rejected } = await submitBundle({
        builders: params.builders,
        txs,
        maxBlockNumber,
        tip: {
          account: params.tipPayer,
          value: params.tip,
          nonce: tipNonces[index] ?? 0,
          gasPrice,
          chainId: params.chainId,
        },
      });
      for (const refusal of rejected)
        say(`ERROR builder ${refusal.builder} refused bundle ${index + 1}: ${refusal.reason}`);
      const landed = await waitForBundle(params.rpcUrl, {
        txHash: keccak256(txs[txs.length - 1] as Hex),
        tips: accepted,
        maxBlockNumber,
      });
      report.bundles.push({
        index,
        status: "included",
        blockNumber: landed.blockNumber,
        builder: landed.builder,
        buyers,
      });
      if (index === 0) report.atomicWithCreate = buyers;
      say(
        `SUCCESS bundle ${index + 1}/${groups.length} included in block ${landed.blockNumber}${landed.builder ? ` by ${landed.builder}` : ""}`,
      );
    } catch (error) {
      if (index === 0) throw error;
      const reason = error instanceof ChainError ? error.shortMessage : (error as Error).message;
      report.bundles.push({ index, status: "failed", reason, buyers });
      say(`FAILED bundle ${index + 1}/${groups.length}: ${reason}`);
    }
  }
  return report;
};

/** Runs `createToken` on the current state and reads the new token's address from `TokenCreate`. */
const simulateCreate = async (
  client: ReturnType<typeof createPublicClient>,
  params: LaunchTokenParameters,
  data: Hex,
  value: bigint,
): Promise<Address> => {
  try {
    const { results } = await client.simulateCalls({
      account: params.creator.address,
      calls: [{ to: params.launchpad, data, value }],
    });
    const result = results[0];
    if (result?.status !== "success") {
      throw new ChainError(
        `simulation reverted: ${result?.error?.message ?? "createToken failed"}`,
      );
    }
    for (const log of result.logs ?? []) {
      try {
        const event = decodeEventLog({
          abi: LaunchpadManagerArtifact.abi,
          data: log.data,
          topics: log.topics,
        });
        if (event.eventName === "TokenCreate") return event.args.token;
      } catch {
        // Not a launchpad event (the token's own Transfer logs).
      }
    }
  } catch (error) {
    if (error instanceof ChainError) throw error;
    // Nodes without eth_simulateV1: the token is the launchpad's next CREATE address.
    const nonce = await client.getTransactionCount({ address: params.launchpad });
    return getContractAddress({ from: params.launchpad, nonce: BigInt(nonce) });
  }
  throw new ChainError("simulation did not emit TokenCreate");
};

/** Quotes the creator's buy then every wallet's, in bundle order, on the fresh curve. */
const quoteBuys = (params: LaunchTokenParameters) => {
  let state: CurveState = { ...params.curve, offers: 800_000_000n * 10n ** 18n };
  const funds = [params.preSale, ...params.buyers.map((b) => b.funds)];
  return funds.map((amount, i) => {
    if (amount === 0n) return { amount: 0n, fills: false };
    if (state.offers === 0n) {
      throw new ChainError(
        `buy ${i} comes after the curve is sold out and would fail: lower the buy amounts`,
      );
    }
    const quote = quoteBuyWithFunds(state, amount);
    state = { ...state, offers: quote.offers };
    return { amount: quote.amount, fills: quote.offers === 0n };
  });
};

/** [from, to) buyer ranges per bundle: the first also holds the create, each holds a tip. */
export const splitBuyers = (count: number, cap: number): Array<[number, number]> => {
  const groups: Array<[number, number]> = [];
  let from = Math.min(count, cap - 2);
  groups.push([0, from]);
  while (from < count) {
    const to = Math.min(count, from + cap - 1);
    groups.push([from, to]);
    from = to;
  }
  return groups;
};

const checkFunds = async (
  client: ReturnType<typeof createPublicClient>,
  needs: Array<{ address: Address; need: bigint }>,
) => {
  const total = new Map<string, { address: Address; need: bigint }>();
  for (const { address, need } of needs) {
    const entry = total.get(address.toLowerCase());
    if (entry) entry.need += need;
    else total.set(address.toLowerCase(), { address, need });
  }
  const wanted = [...total.values()];
  const balances = await getBalances(client, { addresses: wanted.map((n) => n.address) });
  for (const [i, { address, need }] of wanted.entries()) {
    const have = balances[i]?.bnb ?? 0n;
    if (have < need) throw new InsufficientFundsError(address, need - have);
  }
};

/** Each distinct address's pending nonce, in one batched request. */
const pendingNonces = async (
  rpcUrl: string,
  addresses: Address[],
): Promise<Map<string, number>> => {
  const unique = [...new Set(addresses.map((address) => address.toLowerCase()))];
  const answers = await rpcBatch<Hex>(
    rpcUrl,
    unique.map((address) => ({ method: "eth_getTransactionCount", params: [address, "pending"] })),
  );
  return new Map(
    unique.map((address, i) => [address, Number(BigInt(answers[i]?.result ?? "0x0"))]),
  );
};
