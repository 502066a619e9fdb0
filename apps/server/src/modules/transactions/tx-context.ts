import type { Hex } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";
import type { TransactionsRepository } from "./transactions.repository.ts";

/** What the transaction manager's parts work with: its rows, the chain, and where to log. */
export interface TxContext {
  repo: TransactionsRepository;
  chain: ChainContext;
  log?: (message: string) => void;
}

/** A transaction receipt as the node answers it in a batch. */
export type Receipt = { status: Hex; blockNumber: Hex; gasUsed: Hex; effectiveGasPrice?: Hex };
