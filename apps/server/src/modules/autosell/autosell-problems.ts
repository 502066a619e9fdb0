import { ChainError } from "@bundler/chain";
import { BaseError } from "viem";

/**
 * An input the pass could not read for a token at a block: what (said in the condition that
 * needs it) and why (the node's or the database's words, said on the rule's reading).
 */
export interface ReadProblem {
  what: string;
  why: string;
}

/**
 * A failure in a user's words: the chain layer's short message; for viem's errors the node's
 * own words (`details`) or viem's first line, never the request body or viem's version.
 *
 * @example
 * failureWords(rpcError); // "block range too wide: at most 5000 blocks"
 */
export const failureWords = (cause: unknown): string => {
  if (cause instanceof ChainError) return cause.shortMessage;
  if (cause instanceof BaseError) {
    const words = cause.details || cause.shortMessage;
    return words.split("\n")[0] as string;
  }
  return cause instanceof Error ? (cause.message.split("\n")[0] as string) : String(cause);
};
