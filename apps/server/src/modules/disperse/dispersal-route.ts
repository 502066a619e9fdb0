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
  delivered: boolean;
  /** The step whose transfer failed, if one did, and that transfer. */
  failedStep: number | null;
  failed: TransferRow | undefined;
  /** The transfer returning a failed leg's money to the funder. */
  returned: TransferRow | undefined;
}

/**
 * Where one leg stands, read from its recorded transfers: all of them, or only the newest
 * step of each leg (`latestStepsBySubjects`) with its returns. Hops go one after another, so a
 * hop in flight at step s says every step before it is confirmed.
 */
export const legProgress = (
  antiBubblemaps: boolean,
  legIndex: number,
  transfers: readonly TransferRow[],
): LegProgress => {
  let confirmed = -1;
  let failedStep: number | null = null;
  let failed: TransferRow | undefined;
  let returned: TransferRow | undefined;
  for (const t of transfers) {
    if (t.leg !== legIndex) continue;
    if (t.kind === "return") returned = t;
    else if (t.kind === "hop" && t.status === "confirmed")
      confirmed = Math.max(confirmed, t.step ?? 0);
    else if (t.kind === "hop" && (t.status === "signed" || t.status === "sent"))
      confirmed = Math.max(confirmed, (t.step ?? 0) - 1);
    else if (t.kind === "hop" && t.status === "failed") {
      failedStep = t.step ?? 0;
      failed = t;
    }
  }
  return {
    currentHop: antiBubblemaps ? Math.min(Math.max(confirmed, 0), HOPS_PER_CHAIN) : 0,
    delivered: confirmed === lastStep(antiBubblemaps),
    failedStep,
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
