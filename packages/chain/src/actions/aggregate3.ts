import { MULTICALL3_ADDRESS } from "@bundler/contracts";
import { type Address, type Client, type Hex, numberToHex } from "viem";
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
    blockNumber,
  }: {
    callsPerRequest?: number;
    /** Read at this block rather than the latest. */
    blockNumber?: bigint;
    /** Names one request's worth in the error a non-http transport gets ("500 balances"). */
    what?: string;
  } = {},
): Promise<Aggregate3Result[]> => {
  if (calls.length === 0) return [];
  const payloads: Hex[] = [];
  for (let i = 0; i < calls.length; i += callsPerRequest)
    payloads.push(encodeAggregate3(calls.slice(i, i + callsPerRequest)));
  const answers = await ethCalls(client, payloads, what, blockNumber);
  return answers.flatMap(decodeAggregate3);
};

/** `aggregate3((address,bool,bytes)[])`'s selector. */
const AGGREGATE3_SELECTOR = "82ad56cb";
/** Multicall3's `getEthBalance(address)` and ERC-20's `balanceOf(address)` selectors. */
const GET_ETH_BALANCE_SELECTOR = "0x4d2301cc";
const BALANCE_OF_SELECTOR = "0x70a08231";
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX = /^0x(?:[0-9a-fA-F]{2})*$/;

/** One 32-byte ABI word of a non-negative integer, as 64 hex digits. */
const word = (value: number): string => value.toString(16).padStart(64, "0");

/** An address as one ABI word (what `encodeFunctionData` makes of it). */
export const addressWord = (address: string): string => {
  if (!ADDRESS.test(address)) throw new ChainError(`not an address: ${address}`);
  return `000000000000000000000000${address.slice(2).toLowerCase()}`;
};

/**
 * One `aggregate3` call's calldata (to MULTICALL3_ADDRESS), for a caller that sends it in a
 * JSON-RPC batch of its own beside other methods. Encoded by hand (the same bytes as viem's
 * `encodeFunctionData`, which a test checks): viem's generic encoder costs ~14 µs a call, which
 * the balance polls of many users add up to.
 */
export const encodeAggregate3 = (calls: readonly Aggregate3Call[]): Hex => {
  const tuples = calls.map((call) => {
    if (!HEX.test(call.callData)) throw new ChainError(`not calldata: ${call.callData}`);
    const data = call.callData.slice(2);
    const length = data.length / 2;
    return (
      addressWord(call.target) +
      word(call.allowFailure ? 1 : 0) +
      word(0x60) +
      word(length) +
      data.padEnd(Math.ceil(length / 32) * 64, "0")
    );
  });
  const heads: string[] = [];
  let offset = calls.length * 32;
  for (const tuple of tuples) {
    heads.push(word(offset));
    offset += tuple.length / 2;
  }
  return `0x${AGGREGATE3_SELECTOR}${word(0x20)}${word(calls.length)}${heads.join("")}${tuples.join("")}`;
};

/**
 * An `aggregate3` call's answer, one result per call; decoded by hand like `encodeAggregate3`.
 * Throws on an answer that is not one (empty, cut short, offsets out of range).
 */
export const decodeAggregate3 = (data: Hex): Aggregate3Result[] => {
  const hex = data.slice(2);
  const bytes = hex.length / 2;
  /** The word at byte `at`, as a number; only offsets, lengths and booleans are read here. */
  const at = (at: number): number => {
    if (at + 32 > bytes) throw new ChainError(`multicall answered malformed data (${bytes} bytes)`);
    const value = Number.parseInt(hex.slice(at * 2, at * 2 + 64), 16);
    if (!Number.isSafeInteger(value) || value > bytes)
      throw new ChainError(`multicall answered malformed data (${bytes} bytes)`);
    return value;
  };
  if (!HEX.test(data) || bytes < 64)
    throw new ChainError(`multicall answered no results (${bytes} bytes): is Multicall3 deployed?`);
  const array = at(0);
  const count = at(array);
  const base = array + 32;
  return Array.from({ length: count }, (_, i) => {
    const tuple = base + at(base + i * 32);
    const success = /[^0]/.test(hex.slice(tuple * 2, tuple * 2 + 64));
    const start = tuple + at(tuple + 32);
    const length = at(start);
    if (start + 32 + length > bytes)
      throw new ChainError(`multicall answered malformed data (${bytes} bytes)`);
    return {
      success,
      returnData: `0x${hex.slice((start + 32) * 2, (start + 32 + length) * 2)}` as Hex,
    };
  });
};

/** One `eth_call` to Multicall3 per payload, in one HTTP request. */
const ethCalls = async (
  client: Client,
  payloads: Hex[],
  what: string,
  blockNumber: bigint | undefined,
): Promise<Hex[]> => {
  if (payloads.length === 1) {
    const { data } = await call(client, { to: MULTICALL3_ADDRESS, data: payloads[0], blockNumber });
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
      params: [
        { to: MULTICALL3_ADDRESS, data },
        blockNumber === undefined ? "latest" : numberToHex(blockNumber),
      ],
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
  callData: `${GET_ETH_BALANCE_SELECTOR}${addressWord(address)}`,
});

/** The token's `balanceOf(owner)` as a multicall call. */
export const tokenBalanceCall = (token: Address, owner: Address): Aggregate3Call => ({
  target: token,
  callData: `${BALANCE_OF_SELECTOR}${addressWord(owner)}`,
});
