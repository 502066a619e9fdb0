import type { PreflightCheck, PreflightResponse } from "@bundler/shared";
import type { Address } from "viem";
import type { Db } from "../../db/client.ts";
import { migrationState } from "../../db/client.ts";
import type { ChainContext } from "../../lib/chain-context.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import { chainChecks, keyChecks, type PreflightTarget } from "./preflight-checks.ts";

/** What a preflight reads of a running (or starting) server's setup. */
export interface PreflightSetup {
  chain: ChainContext | undefined;
  db: Db;
  vault: KeyVault;
  treasury: { address: Address; hasKey: boolean };
}

/** The chain part of a setup as the checks read it. */
export const preflightTarget = (chain: ChainContext): PreflightTarget => ({
  chain: chain.profile.name,
  chainId: chain.profile.chainId,
  rpcUrl: chain.rpcUrl,
  gasPriceFloor: chain.profile.gasPriceFloor,
  launchpad: chain.launchpad,
  helper: chain.trade?.helper ?? null,
  fourMeme: chain.fourMeme,
  builders: chain.builders,
});

/**
 * Proves a setup before money moves: every check reads (the RPC, the launchpad's contracts,
 * four.meme's API, the builders, the database, the master key, the treasury), none sends.
 * `npm run preflight`, the admin page and a start off the local chain run the same checks.
 */
export class PreflightService {
  constructor(private readonly setup: PreflightSetup) {}

  async run(): Promise<PreflightResponse> {
    const { chain, db, vault, treasury } = this.setup;
    const checks: PreflightCheck[] = [
      ...(chain
        ? await chainChecks(preflightTarget(chain))
        : [
            {
              area: "RPC" as const,
              name: "reachable",
              status: "failed" as const,
              essential: true,
              detail: "this server runs without a chain",
              fix: "set CHAIN and RPC_URL",
            },
          ]),
      ...(await keyChecks({
        migrations: () => migrationState(db),
        openNewest: () => vault.openNewest(),
        treasury,
      })),
    ];
    return {
      success: true,
      chain: chain?.profile.name ?? "none",
      checkedAt: new Date().toISOString(),
      ready: isReady(checks),
      checks,
    };
  }
}

/** Whether every essential check passed. */
export const isReady = (checks: PreflightCheck[]): boolean =>
  checks.every((check) => !check.essential || check.status !== "failed");

const MARK: Record<PreflightCheck["status"], string> = {
  ok: "ok  ",
  warning: "warn",
  failed: "FAIL",
  skipped: "skip",
};

/** One line per check, what to do after a failure or a warning: what the CLI and a start print. */
export const preflightLines = (checks: PreflightCheck[]): string[] =>
  checks.map(
    (check) =>
      `${MARK[check.status]} ${check.area}: ${check.name}: ${check.detail}${check.fix ? ` (${check.status === "failed" ? "to fix" : "what to do"}: ${check.fix})` : ""}`,
  );
