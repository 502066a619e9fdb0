import {
  BaseError,
  HttpRequestError,
  LimitExceededRpcError,
  ResourceUnavailableRpcError,
  TimeoutError,
  WebSocketRequestError,
} from "viem";

/** A read the chain node answered without what was asked (an item of a batch came back empty or in error). */
export class ChainReadError extends Error {
  override readonly name = "ChainReadError";
}

const NOT_SERVED =
  /header not found|unknown block|missing trie node|block height is \d+ but requested was \d+/i;

/**
 * Why a request failed on the chain node rather than on the server, in words that name no URL
 * (an RPC's address can carry its key), or null when it did not: the node did not answer, took
 * too long, answered an HTTP error, refused for its own limits, or did not have a block yet. Found anywhere in the error's
 * causes, as viem and our batch reads (rpcBatch) throw them. The server answers these with 503:
 * try again, nothing is wrong with the request.
 */
export function chainFailure(error: unknown): string | null {
  for (let at = error, depth = 0; at instanceof Error && depth < 10; depth++) {
    if (at instanceof HttpRequestError)
      return at.status
        ? `the chain node answered HTTP ${at.status}`
        : "the chain node did not answer";
    if (at instanceof TimeoutError) return "the chain node took too long to answer";
    if (at instanceof ChainReadError) return "the chain node did not answer a read";
    if (at instanceof WebSocketRequestError) return "the chain node's connection failed";
    if (at instanceof LimitExceededRpcError || at instanceof ResourceUnavailableRpcError)
      return "the chain node refused the request for its own limits";
    // A load-balanced endpoint's node behind the one that gave the head, or one that no longer
    // keeps a block's state (geth's, BSC's and anvil's words).
    if (at instanceof BaseError && NOT_SERVED.test(at.details ?? ""))
      return "the chain node could not serve that block (it is behind, or keeps no state for it)";
    at = at.cause;
  }
  return null;
}
