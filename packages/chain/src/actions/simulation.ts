import { type Address, type Client, decodeErrorResult, type Hex, type Log } from "viem";
import { simulateBlocks } from "viem/actions";
import { ChainError } from "../errors.ts";

/** One call's outcome in an `eth_simulateV1` block. */
export type SimulatedCall = {
  status: "success" | "failure";
  data: Hex;
  gasUsed: bigint;
  maxUsedGas?: bigint;
  logs?: Log[];
};

/** Enough BNB for any simulated call: only the BNB check is lifted, never the logic. */
export const SIMULATION_BALANCE = 10n ** 30n;

/**
 * Runs `calls` in order in one simulated block on top of the latest (`eth_simulateV1`, one RPC
 * request), each sender's BNB lifted so the outcome does not hinge on funding, which callers
 * check themselves. Answers every call's outcome, in order.
 */
export const simulateCalls = (
  client: Client,
  calls: ReadonlyArray<{ from: Address; to: Address; data: Hex; value?: bigint }>,
  /** The simulated block's timestamp (default: the node's choice). */
  { time }: { time?: bigint } = {},
): Promise<SimulatedCall[]> => {
  const senders = [...new Set(calls.map((call) => call.from))];
  return simulateBlocks(client, {
    blocks: [
      {
        calls: calls.map(({ from, ...call }) => ({ account: from, ...call })),
        stateOverrides: senders.map((address) => ({ address, balance: SIMULATION_BALANCE })),
        ...(time === undefined ? {} : { blockOverrides: { time } }),
      },
    ],
    validation: false,
  }).then(([block]) => (block?.calls ?? []) as SimulatedCall[], unsupported);
};

const unsupported = (error: unknown): never => {
  const text = String((error as Error).message ?? error);
  const missing = /(method|eth_simulateV1).*(not found|not supported|unsupported|does not exist)/i;
  if ((error as { code?: number }).code === -32601 || missing.test(text)) {
    throw new ChainError(
      "the RPC node does not support eth_simulateV1, which prices trades on the chain itself: use an RPC endpoint that supports it",
    );
  }
  throw error;
};

/** The revert reason of a failed simulated call: its string, its error's name, or its data. */
export const revertOf = (result: SimulatedCall): string => {
  if (result.data.length <= 2) return "execution reverted";
  try {
    const decoded = decodeErrorResult({ data: result.data });
    return String(decoded.args?.[0] ?? decoded.errorName);
  } catch {
    return result.data;
  }
};

/** The most gas a simulated call needed (before refunds). */
export const gasOf = (result: SimulatedCall): bigint => result.maxUsedGas ?? result.gasUsed;

/**
 * The gas a call must be given, from a simulation: the node's `maxUsedGas` when it says it,
 * else its `gasUsed` grossed up by the most a refund can have taken off it (a fifth of the
 * gross since EIP-3529): a call whose refunds were netted out still needs the gross to run.
 */
export const peakGasOf = (result: SimulatedCall): bigint =>
  result.maxUsedGas ?? (result.gasUsed * 5n + 3n) / 4n;
