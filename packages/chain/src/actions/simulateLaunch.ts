import { LaunchpadHelperArtifact, LaunchpadManagerArtifact } from "@bundler/contracts";
import {
  type Address,
  type Client,
  decodeEventLog,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  isAddressEqual,
} from "viem";
import { ChainError, SimulationRevertError } from "../errors.ts";
import { gasOf, revertOf, type SimulatedCall, simulateCalls } from "./simulation.ts";

export interface SimulateLaunchParameters {
  launchpad: Address;
  /** TokenManagerHelper3 (or the local helper): each buy is priced with its `tryBuy`. */
  helper: Address;
  /** The create, as the creator will send it; omit it once the token exists and pass `token`. */
  create?: { from: Address; data: Hex; value: bigint };
  token?: Address;
  /** Every buy in bundle order: BNB each wallet spends, fee included. */
  buys: ReadonlyArray<{ from: Address; funds: bigint }>;
}

/** One buy as it will be sent and what it gets. */
export interface SimulatedBuy {
  /** Gas (before refunds). */
  gas: bigint;
  /** Tokens its `TokenPurchase` gave. */
  amount: bigint;
  /** The helper's `amountMsgValue`: the BNB to send with `buyTokenAMAP`. */
  msgValue: bigint;
  /** The helper's `amountFunds`: `buyTokenAMAP`'s `funds` argument. */
  funds: bigint;
}

export interface SimulateLaunchReturnType {
  token: Address;
  /** The create's gas (before refunds) and the tokens the creator's own buy gets. */
  create: { gas: bigint; amount: bigint } | null;
  /** Each buy, in order. */
  buys: SimulatedBuy[];
}

/** Runs the bundle again when the helper's amounts moved; they settle at once in practice. */
const MAX_PASSES = 3;

/**
 * Runs the launch on the node itself (`eth_simulateV1`, one block on top of the latest):
 * the create, then every buy in order, each right after the helper's
 * `tryBuy(token, 0, funds)` at that point, and sent as four.meme's trade guide (§2.2) says:
 * `amountMsgValue` as the value and `amountFunds` as `buyTokenAMAP`'s funds. What each buy
 * gets is read from its `TokenPurchase` event and the token from `TokenCreate`. This is the
 * launchpad's real pricing and fee plan (four.meme's on BSC), not a copy of it. Senders'
 * balances are lifted for the simulation only, so the prices come out even for a wallet that
 * is not funded yet; whether each wallet can pay is checked separately. Throws
 * SimulationRevertError naming the transaction that would revert and why.
 *
 * @example
 * const { token, buys } = await simulateLaunch(client, { launchpad, helper, create: { from, data, value }, buys });
 */
export const simulateLaunch = async (
  client: Client,
  params: SimulateLaunchParameters,
): Promise<SimulateLaunchReturnType> => {
  const { launchpad, helper, create } = params;
  const createCall = create ? [{ ...create, to: launchpad }] : [];

  // The buys name the token, which only the create's own run can tell.
  let token = params.token;
  if (create) {
    const [result] = await simulateCalls(client, createCall);
    token = tokenCreated(launchpad, result);
  }
  if (!token) throw new ChainError("simulation needs either the create or the token");
  const roleOf = (from: Address) => `the buy by wallet ${from}`;
  const quoteData = (funds: bigint) =>
    encodeFunctionData({
      abi: LaunchpadHelperArtifact.abi,
      functionName: "tryBuy",
      args: [token, 0n, funds],
    });

  let sent = params.buys.map((buy) => ({ msgValue: buy.funds, funds: buy.funds }));
  for (let pass = 1; pass <= MAX_PASSES; pass++) {
    const calls = params.buys.flatMap((buy, i) => [
      { from: buy.from, to: helper, data: quoteData(buy.funds) },
      {
        from: buy.from,
        to: launchpad,
        value: sent[i]?.msgValue ?? buy.funds,
        data: encodeFunctionData({
          abi: LaunchpadManagerArtifact.abi,
          functionName: "buyTokenAMAP",
          args: [token, sent[i]?.funds ?? buy.funds, 0n],
        }),
      },
    ]);
    const results = await simulateCalls(client, [...createCall, ...calls]);
    const offset = createCall.length;
    if (create && tokenCreated(launchpad, results[0]) !== token)
      throw new ChainError("simulation: the create gave two different token addresses");
    const quoted = params.buys.map((buy, i) =>
      helperAmounts(results[offset + 2 * i], roleOf(buy.from)),
    );
    const settled = quoted.every(
      (q, i) => q.msgValue === sent[i]?.msgValue && q.funds === sent[i]?.funds,
    );
    if (!settled) {
      sent = quoted;
      continue;
    }
    return {
      token,
      // The create buys only when it carries a pre-sale; a buy must buy.
      create: create
        ? outcome(launchpad, token, create.from, results[0], "the create", false)
        : null,
      buys: params.buys.map((buy, i) => ({
        ...outcome(launchpad, token, buy.from, results[offset + 2 * i + 1], roleOf(buy.from)),
        ...quoted[i],
      })) as SimulatedBuy[],
    };
  }
  throw new ChainError(
    `simulation: the helper's amounts for the buys still moved after ${MAX_PASSES} runs`,
  );
};

/** A simulated `tryBuy`'s `amountMsgValue` and `amountFunds`. */
const helperAmounts = (
  result: SimulatedCall | undefined,
  role: string,
): { msgValue: bigint; funds: bigint } => {
  if (!result) throw new ChainError(`simulation returned no quote for ${role}`);
  if (result.status !== "success") throw new SimulationRevertError(role, revertOf(result));
  const [, , , , , msgValue, , funds] = decodeFunctionResult({
    abi: LaunchpadHelperArtifact.abi,
    functionName: "tryBuy",
    data: result.data,
  });
  return { msgValue, funds };
};

const launchpadEvents = (launchpad: Address, result: SimulatedCall | undefined) =>
  (result?.logs ?? []).flatMap((log) => {
    if (!isAddressEqual(log.address, launchpad)) return [];
    try {
      return [decodeEventLog({ abi: LaunchpadManagerArtifact.abi, ...log })];
    } catch {
      return [];
    }
  });

const tokenCreated = (launchpad: Address, result: SimulatedCall | undefined): Address => {
  if (!result) throw new ChainError("simulation returned no result for the create");
  if (result.status !== "success") throw new SimulationRevertError("the create", revertOf(result));
  for (const event of launchpadEvents(launchpad, result))
    if (event.eventName === "TokenCreate") return event.args.token;
  throw new ChainError("simulation: the create emitted no TokenCreate");
};

const outcome = (
  launchpad: Address,
  token: Address,
  buyer: Address,
  result: SimulatedCall | undefined,
  role: string,
  mustBuy = true,
): { gas: bigint; amount: bigint } => {
  if (!result) throw new ChainError(`simulation returned no result for ${role}`);
  if (result.status !== "success") throw new SimulationRevertError(role, revertOf(result));
  const purchases = launchpadEvents(launchpad, result).flatMap((event) =>
    event.eventName === "TokenPurchase" &&
    isAddressEqual(event.args.token, token) &&
    isAddressEqual(event.args.account, buyer)
      ? [event.args.amount]
      : [],
  );
  if (purchases.length === 0 && mustBuy)
    throw new ChainError(`simulation: ${role} emitted no TokenPurchase`);
  const amount = purchases.reduce((sum, value) => sum + value, 0n);
  return { gas: gasOf(result), amount };
};
