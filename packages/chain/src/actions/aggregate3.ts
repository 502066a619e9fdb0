import { MULTICALL3_ADDRESS, Multicall3Artifact } from "@bundler/contracts";
import {
  type Address,
  type Client,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
} from "viem";
import { call } from "viem/actions";
import { ChainError } from "../errors.ts";
import { rpcBatch } from "./rpcBatch.ts";

export interface Aggregate3Call {
  target: Address;
  callData: Hex;
  /** A call allowed to fail answers `success: false` instead of failing the whole read. */
  allowFailure?: boolean;
}

export type Aggregate3Result = { success: boolean; returnData: Hex };

/** Calls per `eth_call`: 1,000 small reads still fit one call's gas and size limits. */
export const CALLS_PER_MULTICALL = 1000;

/**
 * Many contract reads in ONE RPC request: Multicall3's `aggregate3`, one `eth_call` per
 * `callsPerRequest` calls, every `eth_call` in one JSON-RPC batch (which needs an http
 * transport when there is more than one). Answers each call's result, in order.
 */
export const aggregate3 = async (
  client: Client,
  calls: readonly Aggregate3Call[],
  {
    callsPerRequest = CALLS_PER_MULTICALL,
    what = `${callsPerRequest} values`,
  }: {
    callsPerRequest?: number;
    /** Names one request's worth in the error a non-http transport gets ("500 balances"). */
    what?: string;
  } = {},
): Promise<Aggregate3Result[]> => {
  if (calls.length === 0) return [];
  const payloads: Hex[] = [];
  for (let i = 0; i < calls.length; i += callsPerRequest)
    payloads.push(encodeAggregate3(calls.slice(i, i + callsPerRequest)));
  const answers = await ethCalls(client, payloads, what);
  return answers.flatMap(decodeAggregate3);
};

/**
 * One `aggregate3` call's calldata (to MULTICALL3_ADDRESS), for a caller that sends it in a
 * JSON-RPC batch of its own beside other methods.
 */
export const encodeAggregate3 = (calls: readonly Aggregate3Call[]): Hex =>
  encodeFunctionData({
    abi: Multicall3Artifact.abi,
    functionName: "aggregate3",
    args: [
      calls.map((c) => ({
        target: c.target,
        allowFailure: c.allowFailure ?? false,
        callData: c.callData,
      })),
    ],
  });

/** An `aggregate3` call's answer, one result per call. */
export const decodeAggregate3 = (data: Hex): Aggregate3Result[] =>
  decodeFunctionResult({ abi: Multicall3Artifact.abi, functionName: "aggregate3", data }).map(
    (result) => ({ success: result.success, returnData: result.returnData }),
  );

/** One `eth_call` to Multicall3 per payload, in one HTTP request. */
const ethCalls = async (client: Client, payloads: Hex[], what: string): Promise<Hex[]> => {
  if (payloads.length === 1) {
    const { data } = await call(client, { to: MULTICALL3_ADDRESS, data: payloads[0] });
    return [data ?? "0x"];
  }
  const url = (client.transport as { type?: string; url?: string }).url;
  if (!url) {
    throw new ChainError(`reading more than ${what} at once needs an http RPC transport`);
  }
  const answers = await rpcBatch<Hex>(
    url,
    payloads.map((data) => ({
      method: "eth_call",
      params: [{ to: MULTICALL3_ADDRESS, data }, "latest"],
    })),
  );
  return answers.map((answer) => {
    if (!answer.result) throw new ChainError(`multicall failed: ${answer.error?.message}`);
    return answer.result;
  });
};

/** Multicall3's own `getEthBalance(address)` call. */
export const ethBalanceCall = (address: Address): Aggregate3Call => ({
  target: MULTICALL3_ADDRESS,
  callData: encodeFunctionData({
    abi: Multicall3Artifact.abi,
    functionName: "getEthBalance",
    args: [address],
  }),
});
