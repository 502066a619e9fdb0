import { HOPS_PER_CHAIN, WALLETS_PER_CHAIN } from "@bundler/chain";
import { generatePrivateKey } from "viem/accounts";
import type { Tx } from "../../db/client.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import type { TransferRow } from "./dispersal-transfers.ts";
import type { LegRow } from "./disperse.repository.ts";

/**
 * The wallets a leg's money passes through: [receiver, w1..w10, destination] with anti
 * bubblemaps (transfer s goes from route[s] to route[s + 1]), [receiver, destination] without.
 */
export const legRoute = (receiver: string, leg: Pick<LegRow, "destination" | "wallets">) => [
  receiver,
  ...(leg.wallets ?? []),
  leg.destination,
];

/** The index of a leg's last transfer: the one that reaches the destination. */
export const lastStep = (antiBubblemaps: boolean) => (antiBubblemaps ? WALLETS_PER_CHAIN : 0);

export interface LegProgress {
  /** Hops done between intermediate wallets, 0..9 (0 when direct). */
  currentHop: number;
  /** A transfer of the leg was mined. */
  started: boolean;
  delivered: boolean;
  /** The first step whose transfer failed, if one did, and that transfer. */
  failedStep: number | null;
  failed: TransferRow | undefined;
  /** The transfer returning a failed leg's money to the funder. */
  returned: TransferRow | undefined;
}

/**
 * Where one leg stands, read from its recorded transfers: all of them, or only those from the
 * newest mined step of each leg on (`latestStepsBySubjects`) with its returns. Hops are
 * signed ahead, each waiting for the one before it, and a mined step is left out only once
 * the next exists: so a hop in flight at step s whose step s - 1 is not among the transfers
 * says every step before it is confirmed. A leg fails at its first failed
 * step: the steps after it were waiting for money that never came.
 */
export const legProgress = (
  antiBubblemaps: boolean,
  legIndex: number,
  transfers: readonly TransferRow[],
): LegProgress => {
  let confirmed = -1;
  let failed: TransferRow | undefined;
  let returned: TransferRow | undefined;
  const hops = transfers.filter((t) => t.leg === legIndex && t.kind === "hop");
  const steps = new Set(hops.map((t) => t.step ?? 0));
  for (const t of transfers) if (t.leg === legIndex && t.kind === "return") returned = t;
  for (const t of hops) {
    const step = t.step ?? 0;
    if (t.status === "confirmed") confirmed = Math.max(confirmed, step);
    else if (t.status === "failed") {
      if (!failed || step < (failed.step ?? 0)) failed = t;
    } else if (!steps.has(step - 1)) confirmed = Math.max(confirmed, step - 1);
  }
  return {
    currentHop: antiBubblemaps ? Math.min(Math.max(confirmed, 0), HOPS_PER_CHAIN) : 0,
    started: confirmed >= 0,
    delivered: confirmed === lastStep(antiBubblemaps),
    failedStep: failed ? (failed.step ?? 0) : null,
    failed,
    returned,
  };
};

/** 0x1234…abcd */
export const shorten = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

/**
 * What the sender of a failed transfer still holds of it: its value, and its gas as well when
 * it never ran (dropped: the gas planned for it was not spent).
 */
export const returnable = (failed: Pick<TransferRow, "paidGas">, value: bigint, fee: bigint) =>
  failed.paidGas ? value : value + fee;

/**
 * Fresh intermediate wallets for `legs` chains, WALLETS_PER_CHAIN each, their keys stored
 * (inside `tx` when given: committed with the dispersal that names them) before any BNB can
 * reach them. Answers each chain's addresses, in route order.
 */
export const newLegWallets = async (
  vault: KeyVault,
  legs: number,
  ownerId: string,
  tx?: Tx,
): Promise<string[][]> => {
  const stored = await vault.store(
    Array.from({ length: legs * WALLETS_PER_CHAIN }, () => ({
      privateKey: generatePrivateKey(),
      purpose: "dispersal" as const,
    })),
    { ownerId },
    tx,
  );
  return Array.from({ length: legs }, (_, i) =>
    stored.slice(i * WALLETS_PER_CHAIN, (i + 1) * WALLETS_PER_CHAIN).map((s) => s.address),
  );
};
