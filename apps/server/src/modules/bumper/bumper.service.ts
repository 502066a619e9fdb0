import { ChainError, getBalances, readTradeRoute } from "@bundler/chain";
import {
  type Bump,
  type Bumper,
  type BumperWallet,
  bumperFormError,
  bumperReceiverError,
  bumpsOf,
  type GenerateBumperBody,
} from "@bundler/shared";
import { type Address, formatEther, formatUnits, getAddress, parseEther } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import {
  BadRequestError,
  ConflictError,
  NotFoundError,
  ServiceUnavailableError,
} from "../../lib/errors.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import { bnbBalances, tokenHoldings } from "../../lib/shared-reads.ts";
import type { BundleEmpties } from "../bundles/bundle-empties.ts";
import type { BundleSells } from "../bundles/bundle-sells.ts";
import type { TxManager } from "../transactions/tx-manager.ts";
import type { BumperEngine } from "./bumper.engine.ts";
import type {
  BumperRepository,
  BumperRow,
  BumpTotals,
  LiveWallet,
  ViewBump,
} from "./bumper.repository.ts";

/** How long a withdrawal waits for a bump on its way to finish, and for its own sells. */
const WITHDRAW_WAIT_MS = 60_000;

export const BUMPER_MESSAGES = {
  generated: "Bumper generated successfully! Send funds to the bumper address to get started.",
  existing: "You already have a bumper for this token. It has been loaded.",
  started: "Bumper started successfully!",
  stopped: "Bumper stopped successfully!",
} as const;

const bnb = (wei: bigint | string | null) => formatEther(BigInt(wei ?? 0));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isUniqueViolation = (error: unknown) =>
  (error as { code?: string }).code === "23505" ||
  (error as { cause?: { code?: string } }).cause?.code === "23505";

/** The bumper API: generate, list, show, start, stop, wallets and withdraw (SPEC §7 /bumper). */
export class BumperService {
  constructor(
    private readonly repo: BumperRepository,
    private readonly vault: KeyVault,
    private readonly chain: ChainContext | undefined,
    private readonly txm: TxManager | undefined,
    private readonly engine: BumperEngine | undefined,
    private readonly trading: { sells: BundleSells; empties: BundleEmpties },
  ) {}

  async generate(
    ownerId: string,
    body: GenerateBumperBody,
  ): Promise<{ bumper: Bumper; existing: boolean }> {
    const buySize = Number(body.buySize);
    const problem = bumperFormError({ ...body, buySize });
    if (problem) throw new BadRequestError(problem);
    let buyWei: bigint;
    try {
      buyWei = parseEther(String(body.buySize).trim());
    } catch {
      throw new BadRequestError("Buy size must be greater than 0");
    }
    const token = getAddress(body.targetToken.trim());
    const open = await this.repo.openFor(ownerId, token);
    if (open) return { bumper: await this.present(open), existing: true };
    await this.requireToken(token);
    const row = await this.repo
      .transaction(async (tx) => {
        const [wallet] = await this.vault.store(
          [{ privateKey: generatePrivateKey(), purpose: "bumper" }],
          { ownerId },
          tx,
        );
        if (!wallet) throw new Error("no key was stored");
        return this.repo.create(
          tx,
          {
            ownerId,
            targetToken: token,
            intervalMinutes: body.interval,
            durationMinutes: body.duration,
            buySize: buyWei.toString(),
            totalBumps: bumpsOf(body.duration, body.interval),
          },
          wallet.address,
        );
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) return null;
        throw error;
      });
    if (!row) {
      // Another request for the same token won the race: answer its bumper.
      const winner = await this.repo.openFor(ownerId, token);
      if (!winner) throw new ConflictError("Failed to generate bumper");
      return { bumper: await this.present(winner), existing: true };
    }
    return { bumper: await this.present(row), existing: false };
  }

  async list(ownerId: string): Promise<Bumper[]> {
    const rows = await this.repo.list(ownerId);
    return this.presentMany(rows);
  }

  /** The bumper page's poll (every 10 s): one database read, the balances from the block cache. */
  async get(ownerId: string, id: string): Promise<{ bumper: Bumper; bumps: Bump[] }> {
    const found = await this.repo.withStatus(ownerId, id);
    if (!found) throw new NotFoundError("Bumper not found");
    const totals = new Map([[found.row.id, found.totals]]);
    const [bumper] = await this.presentWith([found.row], found.live, totals);
    return { bumper: bumper as Bumper, bumps: found.bumps.map(presentBump) };
  }

  async start(ownerId: string, id: string): Promise<Bumper> {
    const row = await this.owned(ownerId, id);
    if (row.status === "completed")
      throw new ConflictError(
        `This bumper has completed all ${row.totalBumps} configured bumps. Create a new bumper to continue.`,
      );
    if (row.status === "active") return this.present(row);
    // Read now, not from the block cache: the user has just funded it.
    const [read] = await getBalances(requireChain(this.chain).client, {
      addresses: [await this.currentAddress(row)],
    });
    const balance = read?.bnb ?? 0n;
    if (balance <= 0n)
      throw new BadRequestError("Fund the bumper address before starting it: its balance is 0 BNB");
    const started = await this.repo.transition(row.id, ["ready", "stopped"], {
      status: "active",
      stopReason: null,
      nextBumpAt: new Date(),
    });
    return this.present(started ?? (await this.owned(ownerId, id)));
  }

  async stop(ownerId: string, id: string): Promise<Bumper> {
    const row = await this.owned(ownerId, id);
    const stopped = await this.repo.transition(row.id, ["active"], {
      status: "stopped",
      nextBumpAt: null,
    });
    return this.present(stopped ?? row);
  }

  async wallets(ownerId: string, id: string): Promise<BumperWallet[]> {
    const row = await this.owned(ownerId, id);
    const chain = requireChain(this.chain);
    const wallets = await this.repo.wallets(row.id);
    const holdings = await tokenHoldings(chain, {
      token: getAddress(row.targetToken),
      addresses: wallets.map((w) => getAddress(w.address)),
      ...(chain.trade ? { helper: chain.trade.helper } : {}),
    });
    return wallets.map((w, i) => ({
      index: w.index,
      address: getAddress(w.address),
      balance: bnb(holdings.holdings[i]?.bnb ?? 0n),
      tokens: formatUnits(holdings.holdings[i]?.token ?? 0n, 18),
      isActive: w.index === row.currentWalletIndex,
    }));
  }

  /**
   * Stops the bumper, waits for a bump on its way to finish, sells the tokens every wallet
   * still holds, then sends every wallet's BNB (minus the exact gas) to `receiver`. Answers
   * the BNB sent.
   */
  async withdraw(ownerId: string, id: string, receiverAddress: string): Promise<bigint> {
    const problem = bumperReceiverError(receiverAddress);
    if (problem) throw new BadRequestError(problem);
    const row = await this.owned(ownerId, id);
    const engine = this.engine;
    if (!engine || !this.txm) throw new ServiceUnavailableError("chain unavailable");
    const receiver = getAddress(receiverAddress.trim());
    const wallets = (await this.repo.wallets(row.id)).map((w) => getAddress(w.address));
    if (wallets.some((w) => w === receiver))
      throw new BadRequestError("The receiver cannot be one of the bumper's own wallets");
    await this.repo.transition(row.id, ["active", "ready"], {
      status: "stopped",
      nextBumpAt: null,
    });
    const deadline = Date.now() + WITHDRAW_WAIT_MS;
    for (;;) {
      const done = await engine.locked(row.id, async () => {
        // A bump on its way goes on to its end (stopped, it starts no new one).
        if (await this.repo.openBump(row.id)) {
          await engine.advance(row.id);
          return null;
        }
        // Read again: the bump that just ended may have moved everything to a new wallet.
        const now = (await this.repo.wallets(row.id)).map((w) => getAddress(w.address));
        return this.withdrawAll(row, now, receiver, deadline);
      });
      if (done !== null) return done;
      if (Date.now() > deadline)
        throw new ConflictError("A bump is still on its way: try the withdrawal again in a minute");
      await sleep(500);
    }
  }

  private async withdrawAll(
    row: BumperRow,
    wallets: Address[],
    receiver: Address,
    deadline: number,
  ): Promise<bigint> {
    const chain = requireChain(this.chain);
    const txm = this.txm as TxManager;
    const target = { tokenAddress: row.targetToken, ticker: "tokens", draftId: null };
    const holdings = await tokenHoldings(chain, {
      token: getAddress(row.targetToken),
      addresses: wallets,
      ...(chain.trade ? { helper: chain.trade.helper } : {}),
    });
    const sellers = wallets.filter((_, i) => (holdings.holdings[i]?.token ?? 0n) > 0n);
    if (sellers.length > 0) {
      const sold = await this.trading.sells.sell(
        row.ownerId,
        target,
        sellers,
        "bumper",
        { amount: "100", isPercentage: true },
        `withdraw:${row.id}:${Date.now()}`,
      );
      const hashes = sold.flatMap((s) => s.transactions.flatMap((t) => (t.hash ? [t.hash] : [])));
      const keys = (await txm.byHashes(hashes)).map((r) => r.key);
      await txm.waitFinal(keys, { pollMs: 250, timeoutMs: Math.max(deadline - Date.now(), 5_000) });
    }
    // Read now, not from the block cache: the sells just moved these balances.
    const balances = await getBalances(chain.client, { addresses: wallets });
    const holding = wallets.filter((_, i) => (balances[i]?.bnb ?? 0n) > 0n);
    if (holding.length === 0) return 0n;
    const outcomes = await this.trading.empties.empty(
      row.ownerId,
      target,
      holding,
      receiver,
      `withdraw:${row.id}:${Date.now()}`,
      "bumper",
    );
    return outcomes.filter((o) => o.success).reduce((sum, o) => sum + parseEther(o.amount), 0n);
  }

  private async requireToken(token: Address): Promise<void> {
    const chain = requireChain(this.chain);
    if (!chain.launchpad || !chain.trade)
      throw new ServiceUnavailableError(`trading is not configured for ${chain.profile.name}`);
    try {
      await readTradeRoute(chain.client, {
        helper: chain.trade.helper,
        token,
        launchpad: chain.launchpad,
      });
    } catch (error) {
      if (error instanceof ChainError)
        throw new BadRequestError(`Token ${token} was not found on the launchpad`);
      throw error;
    }
  }

  private async owned(ownerId: string, id: string): Promise<BumperRow> {
    const row = await this.repo.owned(ownerId, id);
    if (!row) throw new NotFoundError("Bumper not found");
    return row;
  }

  private async currentAddress(row: BumperRow): Promise<Address> {
    const wallet = await this.repo.walletAt(row.id, row.currentWalletIndex);
    if (!wallet) throw new Error(`bumper ${row.id} has no wallet ${row.currentWalletIndex}`);
    return getAddress(wallet.address);
  }

  private async present(row: BumperRow): Promise<Bumper> {
    const [bumper] = await this.presentMany([row]);
    return bumper as Bumper;
  }

  private async presentMany(rows: BumperRow[]): Promise<Bumper[]> {
    if (rows.length === 0) return [];
    const [live, totals] = await Promise.all([
      this.repo.liveWallets(rows.map((r) => r.id)),
      this.repo.totals(rows.map((r) => r.id)),
    ]);
    return this.presentWith(rows, live, totals);
  }

  /** Rows to the contract's shape, given their live wallets and totals (read by the caller). */
  private async presentWith(
    rows: BumperRow[],
    live: LiveWallet[],
    totals: Map<string, BumpTotals>,
  ): Promise<Bumper[]> {
    const liveBalances = this.chain
      ? await bnbBalances(
          this.chain,
          live.map((w) => getAddress(w.address)),
        )
      : live.map(() => 0n);
    // The BNB of the current wallet and of the next while a bump moves it there.
    const balanceOf = new Map<string, bigint>();
    for (const [i, w] of live.entries())
      balanceOf.set(w.bumperId, (balanceOf.get(w.bumperId) ?? 0n) + (liveBalances[i] ?? 0n));
    const addressOf = new Map(
      live.map((w) => [`${w.bumperId}:${w.index}`, getAddress(w.address)] as const),
    );
    return rows.map((row) => ({
      id: row.id,
      targetToken: getAddress(row.targetToken),
      totalBumps: row.totalBumps,
      bumpsCompleted: row.bumpsCompleted,
      interval: Number(row.intervalMinutes),
      duration: Number(row.durationMinutes),
      buySize: bnb(row.buySize),
      balance: bnb(balanceOf.get(row.id) ?? 0n),
      active: row.status === "active",
      status: row.status,
      stopReason: row.stopReason,
      nextBumpAt: row.nextBumpAt?.toISOString() ?? null,
      lastBumpAt: row.lastBumpAt?.toISOString() ?? null,
      address: addressOf.get(`${row.id}:${row.currentWalletIndex}`) as Address,
      currentWalletIndex: row.currentWalletIndex,
      gasSpent: bnb(totals.get(row.id)?.gas ?? 0n),
      volume: bnb(totals.get(row.id)?.volume ?? 0n),
      createdAt: row.createdAt.toISOString(),
    }));
  }
}

const presentBump = (b: ViewBump): Bump => {
  const tokens = BigInt(b.tokens ?? 0);
  const bought = BigInt(b.bought ?? 0);
  return {
    index: b.index,
    at: (b.doneAt ?? b.createdAt).toISOString(),
    block: Number(b.block ?? 0n),
    bought: bnb(bought),
    sold: bnb(b.sold),
    gas: bnb(b.gas),
    // BNB per whole token: wei per 1e18 units is the same ratio.
    price: tokens > 0n ? (Number(bought) / Number(tokens)).toPrecision(6) : "0",
    buyHash: b.buyHash ?? "",
    sellHash: b.sellHash ?? "",
  };
};
