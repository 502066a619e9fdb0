import type {
  AutosellAction,
  AutosellExecution,
  AutosellReading,
  AutosellTrigger,
} from "@bundler/shared";
import type { Address } from "viem";

/** A rule as stored: its trigger (null for a ladder: each tier has its own), action and execution. */
export interface RuleSpec {
  trigger: AutosellTrigger | null;
  action: AutosellAction;
  execution: AutosellExecution;
}

/** What a rule would do at the current block (nothing stored). */
export interface DryRun {
  reading: AutosellReading;
  fires: boolean;
  sales: Array<{ address: Address; tokens: string; expectedBnb: string }>;
  expectedBnb: string;
}

/**
 * What the rules' routes ask of the engine (autosell.engine.ts): a dry run, and the market cap
 * a take-profit must be above.
 */
export interface AutosellPreview {
  dryRun(ownerId: string, token: Address, spec: RuleSpec): Promise<DryRun>;
  /** The token's market cap now: BNB wei, and USD at the app's BNB price (null without one). */
  marketCapNow(token: Address): Promise<{ wei: bigint; usd: number | null }>;
}
