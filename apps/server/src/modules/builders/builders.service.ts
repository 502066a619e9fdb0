import type { BuilderAnswer } from "@bundler/chain";
import { BUILDER_STATS_WINDOWS, type BuilderStatsWindow, type BundleKind } from "@bundler/shared";
import type { ChainContext } from "../../lib/chain-context.ts";
import type { BuildersRepository } from "./builders.repository.ts";

/** One bundle as it was sent: whose, what for, its window, and every builder's answer. */
export interface BundleSend {
  ownerId: string | null;
  kind: BundleKind;
  subject: string | null;
  /** The head read before it was sent; read when the answers come when the sender has none. */
  head?: bigint;
  maxBlockNumber: bigint;
  answers: readonly BuilderAnswer[];
}

/** Refusal reasons each builder's statistics list. */
const TOP_REFUSALS = 5;
const HOUR_MS = 3_600_000;

/**
 * The builders' record: every builder's answer to every bundle the server sends (launches,
 * sells, auto-sell waves, bumps), kept without ever holding up or failing the send (a write
 * that fails is logged), and the statistics read from it.
 */
export class BuilderSends {
  private readonly writes = new Set<Promise<void>>();

  constructor(
    private readonly repo: BuildersRepository,
    private readonly chain: ChainContext | undefined,
    private readonly log: (message: string) => void,
  ) {}

  /**
   * `submitBundle`'s `onAnswers` for one bundle: records its answers in the background.
   *
   * @example
   * await submitBundle({ ...bundle, onAnswers: sends?.recorder({ ownerId, kind: "bump", subject, head, maxBlockNumber }) });
   */
  recorder(send: Omit<BundleSend, "answers">): (answers: BuilderAnswer[]) => void {
    return (answers) => this.note({ ...send, answers });
  }

  /** Records one bundle's answers in the background; never throws. */
  note(send: BundleSend): void {
    const write: Promise<void> = this.write(send)
      .catch((error: unknown) =>
        this.log(
          `builder statistics: a ${send.kind} bundle's answers were not recorded: ${(error as Error).message}`,
        ),
      )
      .finally(() => this.writes.delete(write));
    this.writes.add(write);
  }

  /** Resolves once every record started so far is written (or failed). */
  async idle(): Promise<void> {
    await Promise.all([...this.writes]);
  }

  private async write(send: BundleSend): Promise<void> {
    if (send.answers.length === 0) return;
    const head = send.head ?? (await this.chain?.client.getBlockNumber()) ?? 0n;
    const bundleId = crypto.randomUUID();
    await this.repo.insert(
      send.answers.map((a) => ({
        bundleId,
        ownerId: send.ownerId,
        kind: send.kind,
        subject: send.subject,
        builder: a.builder,
        answer: a.answer,
        reason: a.reason,
        sentAt: a.sentAt,
        answerMs: Math.max(0, Math.round(a.ms)),
        tipHash: a.tipHash.toLowerCase(),
        bundleHash: a.bundleHash?.toLowerCase() ?? null,
        maxBlockNumber: send.maxBlockNumber,
        headAtSend: head,
        // A refused variant cannot land through this send (its tip may, signed again the same
        // way, through a later one: that send's row is the one that lands).
        ...(a.answer === "refused" ? { outcome: "not-landed" as const } : {}),
      })),
    );
  }

  /** Per builder over 24 hours and over 7 days: of every bundle, or of one owner's. */
  async stats(ownerId?: string, now = new Date()): Promise<BuilderStatsWindow[]> {
    return Promise.all(
      BUILDER_STATS_WINDOWS.map(async (hours) => {
        const since = new Date(now.getTime() - hours * HOUR_MS);
        const [counts, totals, refusals, misses] = await Promise.all([
          this.repo.counts(since, ownerId),
          this.repo.bundles(since, ownerId),
          this.repo.refusals(since, ownerId),
          this.repo.misses(since, ownerId),
        ]);
        const top = (rows: typeof refusals, builder: string) =>
          rows
            .filter((r) => r.builder === builder)
            .slice(0, TOP_REFUSALS)
            .map(({ reason, count }) => ({ reason, count }));
        const landings = counts.reduce((sum, c) => sum + c.landed, 0);
        return {
          hours,
          ...totals,
          builders: counts.map((c) => ({
            ...c,
            landingShare: landings === 0 ? 0 : c.landed / landings,
            topRefusals: top(refusals, c.builder),
            notLanded: top(misses, c.builder),
          })),
        };
      }),
    );
  }
}
