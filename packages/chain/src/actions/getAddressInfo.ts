import { MULTICALL3_ADDRESS } from "@bundler/contracts";
import {
  type Address,
  type Client,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  hexToBigInt,
  hexToNumber,
} from "viem";
import { getCode, getTransactionCount } from "viem/actions";
import { ChainError } from "../errors.ts";
import {
  type Aggregate3Call,
  type Aggregate3Result,
  aggregate3,
  decodeAggregate3,
  encodeAggregate3,
  ethBalanceCall,
} from "./aggregate3.ts";
import { decodeTokenInfo, tokenInfoCall } from "./getTokenInfos.ts";
import { rpcBatch } from "./rpcBatch.ts";

export interface GetAddressInfoParameters {
  address: Address;
  /** TokenManagerHelper3 (or the local LaunchpadHelper); without one no token is looked up. */
  helper?: Address;
}

export interface GetAddressInfoReturnType {
  address: Address;
  /** BNB balance, wei. */
  balance: bigint;
  /** Transactions sent from it (its next nonce). */
  nonce: number;
  /** True when code lives at the address. */
  isContract: boolean;
  /** Set when the address is a token the launchpad created. */
  token: {
    name: string;
    symbol: string;
    decimals: number;
    totalSupply: bigint;
    /** It trades on the DEX, no longer on the curve. */
    graduated: boolean;
  } | null;
}

const erc20Read = (
  token: Address,
  functionName: "name" | "symbol" | "decimals" | "totalSupply",
) => ({
  target: token,
  allowFailure: true,
  callData: encodeFunctionData({ abi: erc20Abi, functionName }),
});

/**
 * What one address is: balance, nonce, contract or account, and, when the launchpad created
 * it, the token's name, symbol, supply and whether it graduated. ONE JSON-RPC batch (one HTTP
 * request): a multicall (balance, launchpad token info, ERC-20 reads) beside
 * `eth_getTransactionCount` and `eth_getCode`; a non-http transport makes three calls instead.
 *
 * @example
 * const info = await getAddressInfo(client, { address, helper });
 * if (info.token?.graduated) console.log(`${info.token.symbol} trades on the DEX`);
 */
export const getAddressInfo = async (
  client: Client,
  { address, helper }: GetAddressInfoParameters,
): Promise<GetAddressInfoReturnType> => {
  const calls: Aggregate3Call[] = [
    ethBalanceCall(address),
    ...(helper
      ? [
          tokenInfoCall(helper, address),
          erc20Read(address, "name"),
          erc20Read(address, "symbol"),
          erc20Read(address, "decimals"),
          erc20Read(address, "totalSupply"),
        ]
      : []),
  ];
  const { results, nonce, code } = await readAll(client, address, calls);
  const [balance, info, name, symbol, decimals, totalSupply] = results;
  const launched = info ? decodeTokenInfo(info) : null;
  return {
    address,
    balance: balance ? hexToBigInt(balance.returnData) : 0n,
    nonce,
    isContract: code !== undefined && code !== "0x",
    token: launched
      ? tokenOf(launched.liquidityAdded, { name, symbol, decimals, totalSupply })
      : null,
  };
};

const readAll = async (
  client: Client,
  address: Address,
  calls: Aggregate3Call[],
): Promise<{ results: Aggregate3Result[]; nonce: number; code: Hex | undefined }> => {
  const url = (client.transport as { type?: string; url?: string }).url;
  if (!url) {
    const [results, nonce, code] = await Promise.all([
      aggregate3(client, calls),
      getTransactionCount(client, { address }),
      getCode(client, { address }),
    ]);
    return { results, nonce, code };
  }
  const [multicall, count, code] = await rpcBatch<Hex>(url, [
    {
      method: "eth_call",
      params: [{ to: MULTICALL3_ADDRESS, data: encodeAggregate3(calls) }, "latest"],
    },
    { method: "eth_getTransactionCount", params: [address, "latest"] },
    { method: "eth_getCode", params: [address, "latest"] },
  ]);
  for (const answer of [multicall, count, code])
    if (!answer?.result) throw new ChainError(`address read failed: ${answer?.error?.message}`);
  return {
    results: decodeAggregate3(multicall?.result as Hex),
    nonce: hexToNumber(count?.result as Hex),
    code: code?.result,
  };
};

/** The ERC-20 reads of a launchpad token; a read that failed leaves its field empty. */
const tokenOf = (
  graduated: boolean,
  reads: Record<"name" | "symbol" | "decimals" | "totalSupply", Aggregate3Result | undefined>,
): NonNullable<GetAddressInfoReturnType["token"]> => {
  const read = <T>(functionName: "name" | "symbol" | "decimals" | "totalSupply", fallback: T) => {
    const result = reads[functionName];
    if (!result?.success || result.returnData === "0x") return fallback;
    try {
      return decodeFunctionResult({ abi: erc20Abi, functionName, data: result.returnData }) as T;
    } catch {
      return fallback;
    }
  };
  return {
    name: read("name", ""),
    symbol: read("symbol", ""),
    decimals: read("decimals", 18),
    totalSupply: read("totalSupply", 0n),
    graduated,
  };
};
