import { planDispersal } from "@bundler/chain";
import {
  type createDispersalRoute,
  DISPERSAL_WINDOW_SECONDS,
  DISPERSALS_PAGE_SIZE,
  type Dispersal,
  type DispersalLogLine,
  QUOTAS,
} from "@bundler/shared";
import { type Address, formatEther, getAddress, parseEther } from "viem";
import { generatePrivateKey } from "viem/accounts";
import type { z } from "zod";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import { ConflictError, NotFoundError } from "../../lib/errors.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import { lockUser } from "../../lib/quota.ts";
import type { TxManager } from "../transactions/tx-manager.ts";
import { DispersalHistory, rebuildLog } from "./dispersal-history.ts";
import { legProgress, newLegWallets } from "./dispersal-route.ts";
import { type TransferRow, toTransfers } from "./dispersal-transfers.ts";
import type {
  DispersalRow,
  DisperseRepository,
  ViewDeposit,
  ViewLeg,
} from "./disperse.repository.ts";

const notFound = () => new NotFoundError("Dispersal not found");

/** A dispersal's id is its receiver's address; anything else is not one. */
const receiverOf = (dispersalId: string): Address => {
  try {
    return getAddress(dispersalId);
  } catch {
    throw notFound();
  }
};

/** The dispersal API: create (the receiver's key stored first), read and cancel, owner only. */
export class DisperseService {
  private readonly history: DispersalHistory;

  constructor(
    private readonly repo: DisperseRepository,
    private readonly vault: KeyVault,
    private readonly chain: ChainContext | undefined,
    /** Where the dispersal's transfers are (absent without a chain: there are none). */
    private readonly txs: Pick<TxManager, "latestStepsBySubjects" | "bySubjects"> | undefined,
    private readonly windowSeconds: number = DISPERSAL_WINDOW_SECONDS,
  ) {
    this.history = new DispersalHistory(repo.db);
  }

  /** The funder of the dispersal one of whose wallets `address` is (null when unfunded or none). */
  funderOf(address: string): Promise<string | null> {
    return this.repo.funderOf(address);
  }

  /** `body` as the route's schema parsed it. */
  async create(
    ownerId: string,
    body: z.output<typeof createDispersalRoute.body>,
  ): Promise<Dispersal> {
    const chain = requireChain(this.chain);
    const destinations = body.wallets.map((wallet, i) => ({
      address: getAddress(wallet),
      amount: parseEther(body.amounts[i] ?? "0"),
    }));
    let gasPrice = await chain.client.getGasPrice();
    if (gasPrice < chain.profile.gasPriceFloor) gasPrice = chain.profile.gasPriceFloor;
    const plan = planDispersal({ destinations, antiBubblemaps: body.antiBubblemaps, gasPrice });
    const head = await chain.client.getBlockNumber();

    // Everything is known and valid: only now is anything stored, the receiver's key together
    // with the dispersal that names it (both committed before its address is shown).
    const row = await this.repo.transaction(async (tx) => {
      await lockUser(tx, ownerId);
      if ((await this.repo.countActive(ownerId, tx)) >= QUOTAS.activeDispersals)
        throw new ConflictError(
          `You already have ${QUOTAS.activeDispersals} dispersals in progress, the most one key may keep: fund or cancel a pending one, or wait until one finishes, then try again`,
        );
      const [receiver] = await this.vault.store(
        [{ privateKey: generatePrivateKey(), purpose: "dispersal" }],
        { ownerId },
        tx,
      );
      if (!receiver) throw new Error("the receiver's key was not stored");
      // Each chain's intermediate wallets too, so the first hops go out in the block the
      // funding is seen (making a thousand chains' ten thousand keys then took seconds).
      const wallets = body.antiBubblemaps
        ? await newLegWallets(this.vault, destinations.length, ownerId, tx)
        : [];
      return this.repo.create(
        {
          ownerId,
          receiver: receiver.address,
          amount: plan.total.toString(),
          gasPrice: gasPrice.toString(),
          antiBubblemaps: body.antiBubblemaps,
          expiresAt: new Date(Date.now() + this.windowSeconds * 1000),
          scanFromBlock: head + 1n,
        },
        destinations.map((d, index) => ({
          index,
          destination: d.address,
          amount: d.amount.toString(),
          wallets: wallets[index] ?? null,
        })),
        tx,
      );
    });
    return this.view(row);
  }

  /** The disperser dialog's poll (every 10 s): two database reads, no chain read. */
  async status(ownerId: string, dispersalId: string): Promise<Dispersal> {
    const found = await this.repo.withLegsAndDeposits(receiverOf(dispersalId), ownerId);
    if (!found) throw notFound();
    return this.present(found.row, found.legs, await this.transfersOf(found.row), found.deposits);
  }

  /** One page of the owner's dispersals, newest first (10 a page). */
  async list(ownerId: string, page = 1) {
    const pageSize = DISPERSALS_PAGE_SIZE;
    const { rows, total } = await this.history.page(ownerId, {
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    return { dispersals: rows, total, page, pageSize };
  }

  /** The dispersal's transaction log so far, rebuilt from its records (a reloaded page's). */
  async log(ownerId: string, dispersalId: string): Promise<DispersalLogLine[]> {
    const found = await this.repo.withLegsAndDeposits(receiverOf(dispersalId), ownerId);
    if (!found) throw notFound();
    const [transactions, deposits] = await Promise.all([
      this.txs ? this.txs.bySubjects([found.row.id]) : Promise.resolve([]),
      this.repo.deposits([found.row.id]),
    ]);
    return rebuildLog(found.row, found.legs, transactions, deposits);
  }

  /** pending → cancelled; anything funded can no longer be stopped. */
  async cancel(ownerId: string, dispersalId: string): Promise<void> {
    const row = await this.owned(ownerId, dispersalId);
    if (await this.repo.transition(row.id, ["pending"], "cancelled", { closedAt: new Date() }))
      return;
    const now = await this.owned(ownerId, dispersalId);
    throw new ConflictError(
      now.status === "sending" || now.status === "processing"
        ? "This dispersal is already funded and being sent; it can no longer be cancelled"
        : `This dispersal is already ${now.status}`,
    );
  }

  private async owned(ownerId: string, dispersalId: string): Promise<DispersalRow> {
    const row = await this.repo.byReceiver(receiverOf(dispersalId), ownerId);
    if (!row) throw notFound();
    return row;
  }

  private transfersOf(row: DispersalRow) {
    return this.txs
      ? this.txs.latestStepsBySubjects([row.id]).then(toTransfers)
      : Promise.resolve([]);
  }

  private async view(row: DispersalRow): Promise<Dispersal> {
    const [legs, transfers, deposits] = await Promise.all([
      this.repo.legs(row.id),
      this.transfersOf(row),
      this.repo.deposits([row.id]),
    ]);
    return this.present(row, legs, transfers, deposits);
  }

  private present(
    row: DispersalRow,
    legs: ViewLeg[],
    transfers: TransferRow[],
    deposits: ViewDeposit[],
  ): Dispersal {
    const pending = row.status === "pending";
    // Each chain reads only its own transfers (500 chains × 5,500 transfers otherwise).
    const byLeg = new Map<number, TransferRow[]>();
    for (const t of transfers)
      if (t.leg !== null) {
        const list = byLeg.get(t.leg);
        if (list) list.push(t);
        else byLeg.set(t.leg, [t]);
      }
    return {
      dispersalId: row.receiver,
      receiver: row.receiver,
      amount: formatEther(BigInt(row.amount)),
      expiresIn: pending
        ? Math.max(0, Math.ceil((row.expiresAt.getTime() - Date.now()) / 60_000))
        : 0,
      expiresAt: row.expiresAt.toISOString(),
      status: row.status,
      antiBubblemaps: row.antiBubblemaps,
      chains: legs.map((leg) => {
        const progress = legProgress(row.antiBubblemaps, leg.index, byLeg.get(leg.index) ?? []);
        return {
          finalWallet: leg.destination,
          amount: formatEther(BigInt(leg.amount)),
          currentHop: progress.currentHop,
          completed: progress.delivered,
          failed: progress.failedStep !== null,
        };
      }),
      funder: row.funder,
      refunds: transfers
        .filter((t) => t.kind === "refund" || t.kind === "return")
        .map((t): Dispersal["refunds"][number] => ({
          kind: t.kind as "refund" | "return",
          to: t.to,
          amount: formatEther(BigInt(t.value)),
          reason: t.reason ?? "",
          txHash: t.txHash,
          status: t.status,
        }))
        .concat(
          deposits
            .filter((deposit) => deposit.heldReason)
            .map((deposit) => ({
              kind: "refund" as const,
              to: deposit.from,
              amount: formatEther(BigInt(deposit.refundable)),
              reason: `Held at the receiver: ${deposit.heldReason}`,
              txHash: null,
              status: "held" as const,
            })),
        ),
    };
  }
}
