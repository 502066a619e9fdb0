import { prepareSells } from "@bundler/chain";
import { AUTOSELL_WAVE_ATTEMPTS, plural } from "@bundler/shared";
import { type Address, getAddress, parseEther } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";
import { failpoint } from "../../lib/failpoints.ts";
import { tokenHoldings } from "../../lib/shared-reads.ts";
import type { BundleSells } from "../bundles/bundle-sells.ts";
import type { PnlBundle, PnlRepository } from "../pnl/pnl.repository.ts";
import type { AutosellPassRepository, SellingFiring } from "./autosell-pass.repository.ts";
import { failureWords } from "./autosell-problems.ts";

const WHOLE = 10n ** 18n;
/** 100, in the 18 decimals parseEther gives a percent. */
const HUNDRED = 100n * WHOLE;

/** How many wallets a wave sells: `spreadBlocks` waves at most `maxWalletsPerBlock` each. */
const waveSize = (firing: Pick<SellingFiring, "wallets" | "execution">) =>
  Math.max(
    1,
    Math.min(
      firing.execution.maxWalletsPerBlock,
      Math.ceil(firing.wallets.length / firing.execution.spreadBlocks),
    ),
  );

/**
 * A decided firing's sales (AutosellEngine's pass sends the due ones each block): in waves of
 * `spreadBlocks`, each through the exit path (`BundleSells`, private bundles with a floor) under
 * the request id `autosell:<rule>:<tier>:<wave>`, so a wave sent again after a crash answers
 * what was recorded instead of selling twice. A wave that fails goes again next block, at most
 * AUTOSELL_WAVE_ATTEMPTS times; one firing's failure is never another's.
 */
export class AutosellWaves {
  constructor(
    private readonly repo: AutosellPassRepository,
    private readonly pnl: PnlRepository,
    private readonly chain: ChainContext,
    private readonly sells: BundleSells,
    private readonly emit: (userId: string, message: string) => void,
    private readonly log: (message: string) => void,
    private readonly random: () => number = Math.random,
  ) {}

  /** Sends the firing's due wave; whatever fails in it is an attempt of that wave. */
  async send(firing: SellingFiring, head: bigint): Promise<void> {
    try {
      await this.wave(firing, head);
    } catch (cause) {
      try {
        await this.retry(firing, head, firing.transactions, failureWords(cause));
      } catch (again) {
        this.log(`auto-sell ${firing.ruleId} tier ${firing.tier}: ${failureWords(again)}`);
      }
    }
  }

  /**
   * A wave that did not go goes again next block under the same key. A failure (the chain, the
   * database, a sale that cannot be made) is an attempt: after AUTOSELL_WAVE_ATTEMPTS of them
   * the firing fails with the last reason, and the user is told. Wallets another sale holds
   * are a wait, not a failure (`counts` false): the transaction manager settles that sale
   * (mined or dropped), and the wave goes once it has.
   */
  private async retry(
    firing: SellingFiring,
    head: bigint,
    transactions: string[],
    reason: string,
    counts = true,
  ): Promise<void> {
    if (!counts) {
      await this.repo.waveDone(firing, {
        wavesSent: firing.wavesSent,
        nextBlock: head + 1n,
        transactions,
        attempts: firing.attempts,
        state: "selling",
        error: `block ${head}: ${reason}; trying again next block`,
      });
      return;
    }
    const attempts = firing.attempts + 1;
    const gaveUp = attempts >= AUTOSELL_WAVE_ATTEMPTS;
    this.log(`auto-sell ${firing.ruleId} tier ${firing.tier} attempt ${attempts}: ${reason}`);
    await this.repo.waveDone(firing, {
      wavesSent: firing.wavesSent,
      nextBlock: head + 1n,
      transactions,
      attempts,
      state: gaveUp ? "failed" : "selling",
      error: gaveUp
        ? `Gave up after ${plural(attempts, "attempt")} (the last at block ${head}): ${reason}`
        : `block ${head}: ${reason}; trying again next block (attempt ${attempts} of ${AUTOSELL_WAVE_ATTEMPTS})`,
    });
    if (gaveUp)
      this.emit(
        firing.ownerId,
        `Auto-sell rule ${firing.ruleId.slice(0, 8)} gave up selling after ${plural(attempts, "attempt")}: ${reason}`,
      );
  }

  /** Sends a firing's next wave (unless its price impact is over the rule's limit). */
  private async wave(firing: SellingFiring, head: bigint): Promise<void> {
    const bundle = (await this.pnl.bundle(firing.token)) as PnlBundle;
    const size = waveSize(firing);
    const wallets = firing.wallets
      .slice(firing.wavesSent * size, (firing.wavesSent + 1) * size)
      .map((w) => getAddress(w));
    const last = (firing.wavesSent + 1) * size >= firing.wallets.length;
    const limit = firing.execution.maxImpactPercent;
    if (limit !== undefined && wallets.length > 0) {
      const impact = await this.impact(firing.token, wallets, firing.percent);
      if (impact !== null && impact > limit) {
        await this.repo.waveDone(firing, {
          wavesSent: firing.wavesSent,
          nextBlock: head + 1n,
          transactions: firing.transactions,
          attempts: firing.attempts,
          state: "selling",
          error: `block ${head} skipped: the sales' price impact ${impact.toFixed(2)}% is over the limit of ${limit}%`,
        });
        return;
      }
    }
    let transactions = firing.transactions;
    let error: string | null = null;
    if (wallets.length > 0) {
      // A crash from here on is finished by the next pass: the same keys answer what was recorded.
      await failpoint("autosell.wave");
      let outcomes: Awaited<ReturnType<BundleSells["sellAll"]>>["outcomes"];
      try {
        ({ outcomes } = await this.sells.sellAll(
          firing.ownerId,
          { tokenAddress: firing.token, ticker: bundle.ticker ?? "", draftId: bundle.draftId },
          wallets,
          ["bundle", "deployer"],
          {
            amount: firing.percent,
            isPercentage: true,
            route: "bundle",
            slippageBps: firing.execution.slippageBps,
          },
          `autosell:${firing.ruleId}:${firing.tier}:${firing.wavesSent}`,
        ));
      } catch (cause) {
        // The chain or the database failed: the wave stays due, and goes again next block.
        await this.retry(firing, head, transactions, failureWords(cause));
        return;
      }
      const txs = outcomes.flatMap((o) => o.transactions);
      transactions = [
        ...new Set([...transactions, ...txs.flatMap((t) => (t.hash ? [t.hash] : []))]),
      ];
      // A wallet another sale holds (another rule's wave of the same block, a sale of the
      // user's) got nothing recorded: the wave goes again next block under the same key, which
      // answers the wallets that did sell and sells the rest once theirs has landed.
      const held = outcomes.filter((o) => o.held);
      if (held.length > 0) {
        await this.retry(
          firing,
          head,
          transactions,
          `${held.length} of ${plural(wallets.length, "wallet")} had another sale in flight`,
          false,
        );
        return;
      }
      // A bundle no builder took (its sales recorded, not final): the wave goes again next
      // block under the same key, which sends the recorded bundle again while its window is
      // open and sells as a new attempt once it has passed. A new refusal is an attempt; the
      // same one answered again is a wait for its window to pass.
      const refused = txs.filter((t) => t.status === "failed" && t.hash !== null);
      if (refused.length > 0) {
        const fresh = refused.some((t) => !firing.transactions.includes(t.hash as string));
        await this.retry(
          firing,
          head,
          transactions,
          `no builder took ${plural(refused.length, "sale")}: ${refused[0]?.error}`,
          fresh,
        );
        return;
      }
      const failed = txs.filter((t) => t.status === "failed");
      if (failed.length > 0)
        error = failed
          .slice(0, 3)
          .map((t) => t.error)
          .join("; ")
          .concat(failed.length > 3 ? ` (and ${failed.length - 3} more)` : "");
    }
    const jitter = firing.execution.jitter ? BigInt(Math.floor(this.random() * 3)) : 0n;
    await this.repo.waveDone(firing, {
      wavesSent: firing.wavesSent + 1,
      nextBlock: head + 1n + jitter,
      transactions,
      attempts: 0,
      state: last ? (transactions.length > 0 ? "sent" : "failed") : "selling",
      error,
    });
    if (last)
      this.emit(
        firing.ownerId,
        transactions.length > 0
          ? `Auto-sell rule ${firing.ruleId.slice(0, 8)}: ${plural(transactions.length, "transaction")} sent${error ? `; ${error}` : ""}`
          : `Auto-sell rule ${firing.ruleId.slice(0, 8)} sold nothing: ${error ?? "no wallet had tokens"}`,
      );
  }

  /** The wave's price impact, percent: its simulated proceeds against price × tokens sold. */
  private async impact(token: string, wallets: Address[], percent: string): Promise<number | null> {
    const sales = await this.simulate(token, wallets, percent);
    const marked = sales.reduce((s, x) => s + (x.amountIn * x.price) / WHOLE, 0n);
    const fetched = sales.reduce((s, x) => s + x.amountOut, 0n);
    if (marked === 0n) return null;
    return Number(((marked - fetched) * 10_000n) / marked) / 100;
  }

  /** What selling `percent` of each wallet's tokens fetches now: one simulation in landing order. */
  async simulate(token: string, wallets: Address[], percent: string) {
    const { chain } = this;
    if (!chain.launchpad || !chain.trade) return [];
    const read = await tokenHoldings(chain, {
      token: getAddress(token),
      addresses: wallets,
      helper: chain.trade.helper,
      // The template too: a tax token's DEX sales go through the fee-on-transfer swap.
      launchpad: chain.launchpad,
      spenders: [chain.launchpad, chain.trade.router],
    });
    // As the sale reads it (sellAmounts): the percent's exact decimal, in 18 decimals.
    const scaled = parseEther(percent);
    const sellers = read.holdings
      .map((h) => ({ address: h.address as Address, amount: (h.token * scaled) / HUNDRED }))
      .filter((s) => s.amount > 0n);
    if (sellers.length === 0) return [];
    const prepared = await prepareSells(chain.client, {
      launchpad: chain.launchpad,
      ...chain.trade,
      token: getAddress(token),
      sellers,
      gasPrice: 0n,
      holdings: read,
    });
    const price = read.info?.lastPrice ?? 0n;
    return prepared.sells.flatMap((s) =>
      "quote" in s
        ? [{ address: s.address, amountIn: s.quote.amountIn, amountOut: s.quote.amountOut, price }]
        : [],
    );
  }
}
