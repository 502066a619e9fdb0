import {
  type Address,
  type Chain,
  type Client,
  decodeErrorResult,
  type Hash,
  type Hex,
  isHex,
  type LocalAccount,
  type TransactionReceipt,
  type Transport,
  WaitForTransactionReceiptTimeoutError,
} from "viem";
import {
  call,
  estimateGas,
  getBalance,
  getChainId,
  getGasPrice,
  getTransaction,
  getTransactionCount,
  sendRawTransaction,
  waitForTransactionReceipt,
} from "viem/actions";
import {
  ChainError,
  InsufficientFundsError,
  RevertError,
  revertReasonOf,
  TransactionTimeoutError,
} from "../errors.ts";

/**
 * The shared plumbing of the write actions (buy, sell, transfer, empty): read what offline
 * signing needs, size the gas, check the wallet can pay, sign a legacy transaction with an
 * explicit nonce, send it raw and wait for its receipt, with every failure a typed error.
 */

export type AnyClient = Client<Transport, Chain | undefined>;

export interface WriteContext {
  chainId: number;
  gasPrice: bigint;
  /** The account's pending nonce: the first transaction of this write uses it. */
  nonce: number;
  balance: bigint;
}

export const readWriteContext = async (
  client: AnyClient,
  address: Address,
  gasPrice?: bigint,
): Promise<WriteContext> => {
  const [chainId, price, nonce, balance] = await Promise.all([
    client.chain?.id ?? getChainId(client),
    gasPrice ?? getGasPrice(client),
    getTransactionCount(client, { address, blockTag: "pending" }),
    getBalance(client, { address, blockTag: "pending" }),
  ]);
  return { chainId, gasPrice: price, nonce, balance };
};

export const assertCanPay = (address: Address, balance: bigint, need: bigint): void => {
  if (balance < need) throw new InsufficientFundsError(address, need - balance);
};

/** The revert string in a viem error: decoded by viem, raw revert data, or the node's words. */
export const revertReasonIn = (error: unknown): string | null => {
  const decoded = revertReasonOf(error);
  if (decoded) return decoded;
  let current: unknown = error;
  while (current && typeof current === "object") {
    const { data, details, cause } = current as {
      data?: unknown;
      details?: unknown;
      cause?: unknown;
    };
    if (typeof data === "string" && isHex(data) && data.length > 10) {
      try {
        const result = decodeErrorResult({ data });
        return String(result.args?.[0] ?? result.errorName);
      } catch {
        return data;
      }
    }
    const said = typeof details === "string" ? /execution reverted:\s*(.+)/.exec(details) : null;
    if (said?.[1]) return said[1].trim();
    current = cause;
  }
  return null;
};

/** A revert anywhere in `error` as a RevertError; anything else (network, ...) unchanged. */
export const asChainError = (error: unknown, context: string): unknown => {
  if (error instanceof ChainError) return error;
  const reason = revertReasonIn(error);
  if (reason) return new RevertError(reason, context);
  const message = (error as { details?: unknown }).details;
  if (typeof message === "string" && /revert/i.test(message))
    return new RevertError("execution reverted", context);
  return error;
};

export interface WriteRequest {
  to: Address;
  data?: Hex;
  value?: bigint;
}

/**
 * Gas for `request` from `from`, a revert turned into a RevertError. When the wallet holds
 * less than `value`, the node is told it holds exactly `value`, so the estimate still
 * works and the caller can name the whole shortfall (value and gas).
 */
export const estimateWriteGas = async (
  client: AnyClient,
  from: Address,
  balance: bigint,
  request: WriteRequest,
  context: string,
): Promise<bigint> => {
  const value = request.value ?? 0n;
  try {
    return await estimateGas(client, {
      account: from,
      ...request,
      stateOverride: balance < value ? [{ address: from, balance: value }] : undefined,
    });
  } catch (error) {
    throw asChainError(error, context);
  }
};

/**
 * A gas limit with room for what an estimate cannot see: the state moving before inclusion,
 * and Uniswap V2 pairs writing their cumulative prices on a block's first swap (the estimate
 * runs at the latest block's timestamp; a pool's first swap after graduation costs ~45k
 * more than estimated). Legacy transactions pay only the gas used.
 */
export const withMargin = (gas: bigint): bigint => (gas * 12n) / 10n + 50_000n;

export interface SendSignedParameters extends WriteRequest {
  account: LocalAccount;
  chainId: number;
  nonce: number;
  gas: bigint;
  gasPrice: bigint;
  /** Names the step in error messages ("buy", "approve", ...). */
  context: string;
  timeoutMs?: number;
}

/** Signs offline (legacy type, explicit nonce), sends raw, waits; throws RevertError on a revert. */
export const sendSigned = async (
  client: AnyClient,
  {
    account,
    chainId,
    nonce,
    gas,
    gasPrice,
    context,
    timeoutMs = 60_000,
    ...request
  }: SendSignedParameters,
): Promise<TransactionReceipt> => {
  const serializedTransaction = await account.signTransaction({
    type: "legacy",
    chainId,
    nonce,
    gas,
    gasPrice,
    ...request,
  });
  let hash: Hash;
  try {
    hash = await sendRawTransaction(client, { serializedTransaction });
  } catch (error) {
    const said = (error as { shortMessage?: string }).shortMessage ?? (error as Error).message;
    throw new ChainError(`${context}: the node refused the transaction: ${said}`);
  }
  let receipt: TransactionReceipt;
  try {
    receipt = await waitForTransactionReceipt(client, { hash, timeout: timeoutMs });
  } catch (error) {
    if (error instanceof WaitForTransactionReceiptTimeoutError)
      throw new TransactionTimeoutError(hash, timeoutMs);
    throw error;
  }
  if (receipt.status === "reverted")
    throw new RevertError(await minedRevertReason(client, receipt), `${context} (tx ${hash})`);
  return receipt;
};

/**
 * Why a mined transaction reverted: from its trace when the node traces (exact, even when
 * an earlier transaction of the same block caused it), else by replaying it on the state
 * before its block.
 */
const minedRevertReason = async (client: AnyClient, receipt: TransactionReceipt) => {
  const hash = receipt.transactionHash;
  const trace = await callTrace(client, hash);
  if (trace) {
    if (trace.revertReason) return trace.revertReason;
    const decoded = trace.output ? revertReasonIn({ data: trace.output }) : null;
    if (decoded) return decoded;
    return ranOutOfGas(trace) ? "out of gas" : "execution reverted";
  }
  const tx = await getTransaction(client, { hash });
  try {
    await call(client, {
      account: tx.from,
      to: tx.to,
      data: tx.input,
      value: tx.value,
      gas: tx.gas,
      blockNumber: receipt.blockNumber - 1n,
    });
  } catch (error) {
    return revertReasonIn(error) ?? "execution reverted";
  }
  return "execution reverted";
};

interface CallFrame {
  error?: string;
  revertReason?: string;
  output?: Hex;
  calls?: CallFrame[];
}

const callTrace = async (client: AnyClient, hash: Hash): Promise<CallFrame | null> => {
  try {
    return (await client.request({
      method: "debug_traceTransaction",
      params: [hash, { tracer: "callTracer" }],
    } as never)) as CallFrame;
  } catch {
    return null;
  }
};

const ranOutOfGas = (frame: CallFrame): boolean =>
  /out of gas/i.test(frame.error ?? "") || (frame.calls ?? []).some(ranOutOfGas);
