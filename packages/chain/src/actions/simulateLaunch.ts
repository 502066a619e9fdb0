import { LaunchpadManagerArtifact } from "@bundler/contracts";
import {
  type Address,
  type Client,
  decodeEventLog,
  encodeFunctionData,
  type Hex,
  isAddressEqual,
} from "viem";
import { ChainError, SimulationRevertError } from "../errors.ts";
import { gasOf, revertOf, type SimulatedCall, simulateCalls } from "./simulation.ts";

export interface SimulateLaunchParameters {
  launchpad: Address;
  /** The create, as the creator will send it; omit it once the token exists and pass `token`. */
  create?: { from: Address; data: Hex; value: bigint };
  token?: Address;
  /** Every buy in bundle order: `buyTokenAMAP(token, funds, minAmount)` sent with `funds`. */
  buys: ReadonlyArray<{ from: Address; funds: bigint }>;
}

export interface SimulateLaunchReturnType {
  token: Address;
  /** The create's gas (before refunds) and the tokens the creator's own buy gets. */
  create: { gas: bigint; amount: bigint } | null;
  /** Each buy's gas (before refunds) and tokens, in order. */
  buys: Array<{ gas: bigint; amount: bigint }>;
}

/**
 * Runs the launch on the node itself (`eth_simulateV1`, one block on top of the latest):
 * the create, then every buy in order, and reads what each buy gets from its
 * `TokenPurchase` event and the token from `TokenCreate`. This is the launchpad's real
 * pricing and fee plan (four.meme's on BSC), not a copy of it. Senders' balances are
 * lifted for the simulation only, so the prices come out even for a wallet that is not
 * funded yet; whether each wallet can pay is checked separately. Throws
 * SimulationRevertError naming the transaction that would revert and why.
 *
 * @example
 * const { token, buys } = await simulateLaunch(client, { launchpad, create: { from, data, value }, buys });
 */
export const simulateLaunch = async (
  client: Client,
  params: SimulateLaunchParameters,
): Promise<SimulateLaunchReturnType> => {
  const { launchpad, create } = params;
  const run = (calls: Array<{ from: Address; data: Hex; value: bigint }>) =>
    simulateCalls(
      client,
      calls.map((call) => ({ ...call, to: launchpad })),
    );

  // The buys name the token, which only the create's own run can tell.
  let token = params.token;
  if (create) {
    const [result] = await run([create]);
    token = tokenCreated(launchpad, result);
  }
  if (!token) throw new ChainError("simulation needs either the create or the token");
  const buyCalls = params.buys.map((buy) => ({
    from: buy.from,
    value: buy.funds,
    data: encodeFunctionData({
      abi: LaunchpadManagerArtifact.abi,
      functionName: "buyTokenAMAP",
      args: [token, buy.funds, 0n],
    }),
  }));
  const results = await run([...(create ? [create] : []), ...buyCalls]);
  const offset = create ? 1 : 0;
  if (create && tokenCreated(launchpad, results[0]) !== token)
    throw new ChainError("simulation: the create gave two different token addresses");
  return {
    token,
    // The create buys only when it carries a pre-sale; a buy must buy.
    create: create ? outcome(launchpad, token, create.from, results[0], "the create", false) : null,
    buys: params.buys.map((buy, i) =>
      outcome(launchpad, token, buy.from, results[i + offset], `the buy by wallet ${buy.from}`),
    ),
  };
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
