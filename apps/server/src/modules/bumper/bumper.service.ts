import {
  ChainError,
  getBalances,
  getTokenHoldings,
  readTradeRoute,
  UnsupportedTokenError,
} from "@bundler/chain";
import {
  BUMPER_MAX_ACTIVE,
  BUMPER_TAB_STATUSES,
  type Bump,
  type Bumper,
  type BumperCosts,
  type BumperWallet,
  bumperFormError,
  bumperReceiverError,
  bumpsOf,
  type GenerateBumperBody,
  type ListBumpersQuery,
  type Pagination,
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
import { lockUser } from "../../lib/quota.ts";
import { tokenHoldings } from "../../lib/shared-reads.ts";
import { refuseUntradableKind } from "../../lib/token-kind.ts";
import type { BundleEmpties } from "../bundles/bundle-empties.ts";
import type { BundleSells } from "../bundles/bundle-sells.ts";
import type { TxManager } from "../transactions/tx-manager.ts";
import type { BumperEngine } from "./bumper.engine.ts";
import { BumperPresenter, presentBump } from "./bumper.presenter.ts";
import type { BumperRepository, BumperRow } from "./bumper.repository.ts";
import { bumperCosts } from "./bumper-costs.ts";

/** How long a withdrawal waits for a bump on its way to finish, and for its own sells. */
const WITHDRAW_WAIT_MS = 60_000;

export const BUMPER_MESSAGES = {
  generated: "Bumper generated successfully! Send funds to the bumper address to get started.",
  existing: "You already have a bumper for this token. It has been loaded.",
  started: "Bumper started successfully!",
  stopped: "Bumper stopped successfully!",
} as const;

const bnb = (wei: bigint | string | null) => formatEther(BigInt(wei ?? 0));
const tooMany = () =>
  new BadRequestError(
    `You already have ${BUMPER_MAX_ACTIVE} active bumpers, the most one key may keep: stop or withdraw one, then try again`,
  );
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isUniqueViolation = (error: unknown) =>
  (error as { code?: string }).code === "23505" ||
  (error as { cause?: { code?: string } }).cause?.code === "23505";

/** What a withdrawal sent, and the wallets whose tokens did not sell (they keep their BNB). */
export interface Withdrawal {
  amount: bigint;
  unsold: Map<Address, string>;
}

/** The bumper API: generate, list, show, start, stop, wallets and withdraw (SPEC §7 /bumper). */
export class BumperService {
  private readonly view: BumperPresenter;

  constructor(
    private readonly repo: BumperRepository,
    private readonly vault: KeyVault,
    private readonly chain: ChainContext | undefined,
    private readonly txm: TxManager | undefined,
    private readonly engine: BumperEngine | undefined,
    private readonly trading: { sells: BundleSells; empties: BundleEmpties },
  ) {
    this.view = new BumperPresenter(repo, chain);
  }

  /** What a bump costs now besides its buy: the plan's figures (tip, gas, trading fees). */
  async costs(): Promise<BumperCosts> {
    if (!this.engine) throw new ServiceUnavailableError("chain unavailable");
    return bumperCosts(requireChain(this.chain), this.engine.tip);
  }

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
    if (open) return { bumper: await this.view.one(open), existing: true };
    await this.requireToken(token);
    const row = await this.repo
      .transaction(async (tx) => {
        await lockUser(tx, ownerId);
        if ((await this.repo.countActive(ownerId, tx)) >= BUMPER_MAX_ACTIVE) throw tooMany();
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
      return { bumper: await this.view.one(winner), existing: true };
    }
    return { bumper: await this.view.one(row), existing: false };
  }

  /** One page of the user's bumpers (of one tab, or all), newest first, and each tab's count. */
  async list(
    ownerId: string,
    query: { tab?: ListBumpersQuery["tab"]; page: number; limit: number },
  ): Promise<{
    bumpers: Bumper[];
    pagination: Pagination;
    counts: { active: number; completed: number };
  }> {
    const { page, limit } = query;
    const statuses = query.tab ? BUMPER_TAB_STATUSES[query.tab] : undefined;
    const [rows, counts] = await Promise.all([
      this.repo.page(ownerId, statuses, limit, (page - 1) * limit),
      this.repo.tabCounts(ownerId),
    ]);
    const total = query.tab ? counts[query.tab] : counts.active + counts.completed;
    return {
      bumpers: await this.view.many(rows),
      pagination: { page, limit, total, pages: Math.ceil(total / limit) },
      counts,
    };
  }

  /** The bumper page's poll (every 10 s): one database read, the balances from the block cache. */
  async get(ownerId: string, id: string): Promise<{ bumper: Bumper; bumps: Bump[] }> {
    const found = await this.repo.withStatus(ownerId, id);
    if (!found) throw new NotFoundError("Bumper not found");
    const totals = new Map([[found.row.id, found.totals]]);
    const [bumper] = await this.view.with([found.row], found.live, totals);
    return { bumper: bumper as Bumper, bumps: found.bumps.map(presentBump) };
  }

  async start(ownerId: string, id: string): Promise<Bumper> {
    const row = await this.owned(ownerId, id);
    if (row.status === "completed")
      throw new ConflictError(
        `This bumper has completed all ${row.totalBumps} configured bumps. Create a new bumper to continue.`,
      );
    if (row.status === "active") return this.view.one(row);
    // A kind this app does not trade (TokenManager V1, X Mode) is refused with the reason.
    await refuseUntradableKind(this.chain, getAddress(row.targetToken), "bumped");
    // Read now, not from the block cache: the user has just funded it.
    const [read] = await getBalances(requireChain(this.chain).client, {
      addresses: [await this.currentAddress(row)],
    });
    const balance = read?.bnb ?? 0n;
    if (balance <= 0n)
      throw new BadRequestError("Fund the bumper address before starting it: its balance is 0 BNB");
    const started = await this.repo.transaction(async (tx) => {
      await lockUser(tx, ownerId);
      // A stopped bumper started again is active again: it needs a free place.
      if (
        row.status === "stopped" &&
        (await this.repo.countActive(ownerId, tx)) >= BUMPER_MAX_ACTIVE
      )
        throw tooMany();
      return this.repo.transition(
        row.id,
        ["ready", "stopped"],
        { status: "active", stopReason: null, nextBumpAt: new Date() },
        tx,
      );
    });
    return this.view.one(started ?? (await this.owned(ownerId, id)));
  }

  async stop(ownerId: string, id: string): Promise<Bumper> {
    const row = await this.owned(ownerId, id);
    const stopped = await this.repo.transition(row.id, ["active"], {
      status: "stopped",
      nextBumpAt: null,
    });
    return this.view.one(stopped ?? row);
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
   * still holds (but dust, which no sale can take), then sends every wallet's BNB (minus the
   * exact gas) to `receiver`, except a wallet whose tokens did not sell. Answers the BNB sent
   * and those wallets, with why.
   */
  async withdraw(ownerId: string, id: string, receiverAddress: string): Promise<Withdrawal> {
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
  ): Promise<Withdrawal> {
    const chain = requireChain(this.chain);
    const txm = this.txm as TxManager;
    const target = { tokenAddress: row.targetToken, ticker: "tokens", draftId: null };
    // Read now, not from the block cache: a wallet whose tokens arrived in the block the cache
    // has not seen would be emptied of its BNB unsold, its tokens stranded with no gas to move.
    const holdings = await getTokenHoldings(chain.client, {
      token: getAddress(row.targetToken),
      addresses: wallets,
      ...(chain.trade ? { helper: chain.trade.helper } : {}),
    });
    // Dust (fewer tokens than a sale can take: anyone can send a wallet 1 wei) is no sale: a
    // sale of it would fail on every retry and keep the wallet's BNB. It stays where it is.
    const sellable = await this.trading.sells.sellable(getAddress(row.targetToken), holdings);
    const sellers = wallets.filter((_, i) => (sellable[i] ?? 0n) > 0n);
    const unsold = new Map<Address, string>();
    if (sellers.length > 0) {
      const sold = await this.trading.sells.sell(
        row.ownerId,
        target,
        sellers,
        "bumper",
        // Privately, with a floor, as every sale the server makes (a public one feeds sandwiches).
        { amount: "100", isPercentage: true, route: "bundle" },
        `withdraw:${row.id}:${Date.now()}`,
      );
      for (const outcome of sold) {
        const refused = outcome.transactions.find((t) => t.status === "failed");
        if (refused) unsold.set(outcome.address, refused.error ?? "it was refused");
      }
      const hashes = sold.flatMap((s) => s.transactions.flatMap((t) => (t.hash ? [t.hash] : [])));
      const keys = (await txm.byHashes(hashes)).map((r) => r.key);
      const final = await txm.waitFinal(keys, {
        pollMs: 250,
        timeoutMs: Math.max(deadline - Date.now(), 5_000),
      });
      for (const tx of final)
        if (tx.status !== "mined") unsold.set(getAddress(tx.from), tx.error ?? `it ${tx.status}`);
    }
    // Read now, not from the block cache: the sells just moved these balances.
    const balances = await getBalances(chain.client, { addresses: wallets });
    // A wallet whose tokens did not sell keeps its BNB: emptied, it could never pay to sell them.
    const holding = wallets.filter((w, i) => (balances[i]?.bnb ?? 0n) > 0n && !unsold.has(w));
    if (holding.length === 0) return { amount: 0n, unsold };
    const outcomes = await this.trading.empties.empty(
      row.ownerId,
      target,
      holding,
      receiver,
      `withdraw:${row.id}:${Date.now()}`,
      "bumper",
    );
    return {
      amount: outcomes.filter((o) => o.success).reduce((sum, o) => sum + parseEther(o.amount), 0n),
      unsold,
    };
  }

  /**
   * A token the bumper can trade: the launchpad's, and of a kind this app trades (not a
   * TokenManager V1 or an X Mode token, which are refused with the reason).
   */
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
      if (error instanceof UnsupportedTokenError && error.code === "kind")
        throw new BadRequestError(`Token ${token} cannot be bumped: ${error.reason}`);
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
}
