import { planDispersal } from "@bundler/chain";
import {
  type createDispersalRoute,
  DISPERSAL_WINDOW_SECONDS,
  type Dispersal,
} from "@bundler/shared";
import { type Address, formatEther, getAddress, parseEther } from "viem";
import { generatePrivateKey } from "viem/accounts";
import type { z } from "zod";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import { ConflictError, NotFoundError } from "../../lib/errors.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import { legProgress } from "./dispersal-route.ts";
import type { DispersalRow, DisperseRepository } from "./disperse.repository.ts";

const notFound = () => new NotFoundError("Dispersal not found");

/** The dispersal API: create (the receiver's key stored first), read and cancel, owner only. */
export class DisperseService {
  constructor(
    private readonly repo: DisperseRepository,
    private readonly vault: KeyVault,
    private readonly chain: ChainContext | undefined,
    private readonly windowSeconds: number = DISPERSAL_WINDOW_SECONDS,
  ) {}

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

    const [receiver] = await this.vault.store(
      [{ privateKey: generatePrivateKey(), purpose: "dispersal" }],
      { ownerId },
    );
    if (!receiver) throw new Error("the receiver's key was not stored");
    const head = await chain.client.getBlockNumber();
    const row = await this.repo.create(
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
      })),
    );
    return this.view(row);
  }

  async status(ownerId: string, dispersalId: string): Promise<Dispersal> {
    return this.view(await this.owned(ownerId, dispersalId));
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
    let receiver: Address;
    try {
      receiver = getAddress(dispersalId);
    } catch {
      throw notFound();
    }
    const row = await this.repo.byReceiver(receiver, ownerId);
    if (!row) throw notFound();
    return row;
  }

  private async view(row: DispersalRow): Promise<Dispersal> {
    const [legs, transfers] = await Promise.all([
      this.repo.legs(row.id),
      this.repo.transfers([row.id]),
    ]);
    const pending = row.status === "pending";
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
        const progress = legProgress(row.antiBubblemaps, leg.index, transfers);
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
        .map((t) => ({
          kind: t.kind as "refund" | "return",
          to: t.to,
          amount: formatEther(BigInt(t.value)),
          reason: t.reason ?? "",
          txHash: t.txHash,
          status: t.status,
        })),
    };
  }
}
