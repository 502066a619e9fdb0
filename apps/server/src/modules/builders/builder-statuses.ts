import { type BundleStatus, getBundleStatus, hasBundleStatus } from "@bundler/chain";
import type { Hex } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";
import type { BuilderSendRow, BuildersRepository } from "./builders.repository.ts";

/**
 * Questions a day each builder's status service is asked at most. BlockRazor allows from a few
 * to 100 a day by tier (the lowest is assumed); 48 Club publishes none (kept modest).
 */
export const STATUS_QUOTAS: Readonly<Record<string, number>> = { "48club": 500, blockrazor: 5 };
/**
 * How long after a bundle was sent its status is asked: BlockRazor knows some minutes after,
 * 48 Club confirms about 5 blocks late.
 */
export const STATUS_DELAY_MS = 5 * 60_000;
/** 48 Club keeps a bundle 7 days: older ones are not asked about. */
const STATUS_KEPT_MS = 7 * 24 * 3_600_000;
/** Questions one pass asks of one service at most. */
const PER_PASS = 5;
const DAY_MS = 24 * 3_600_000;

/** What a status service's answer says, as kept beside the send. */
const saidOf = (status: BundleStatus): Pick<BuilderSendRow, "status" | "statusReason"> => {
  switch (status.state) {
    case "failed":
      return { status: "failed", statusReason: status.reason };
    case "unknown":
      return {
        status: "unknown",
        statusReason: "unknown to its status service (never seen, or no longer kept)",
      };
    case "pending":
      return { status: "pending", statusReason: "not decided by its status service when asked" };
    case "landed":
      return {
        status: "landed",
        statusReason: `its status service says it landed${status.block ? ` in block ${status.block}` : ""}; the chain shows another variant or none`,
      };
  }
};

/**
 * Why a bundle a builder took did not land, in the builder's own words: for 48 Club and
 * BlockRazor (the builders with a status service), each such bundle is asked about once, some
 * minutes after it was sent, within each service's daily quota; the answer is kept on the send
 * and listed in the statistics. The chain alone decides what landed (BuilderLandings).
 */
export class BuilderStatuses {
  private readonly quotas: Readonly<Record<string, number>>;
  readonly delayMs: number;

  constructor(
    private readonly repo: BuildersRepository,
    private readonly chain: ChainContext,
    private readonly log: (message: string) => void,
    options: { quotas?: Readonly<Record<string, number>>; delayMs?: number } = {},
  ) {
    this.quotas = { ...STATUS_QUOTAS, ...options.quotas };
    this.delayMs = options.delayMs ?? STATUS_DELAY_MS;
  }

  /** The configured builders that have a status service. */
  builders(): string[] {
    return this.chain.builders.map((b) => b.name).filter(hasBundleStatus);
  }

  async pass(now = new Date()): Promise<void> {
    for (const builder of this.chain.builders) {
      if (!hasBundleStatus(builder.name)) continue;
      const asked = await this.repo.statusAsked(builder.name, new Date(now.getTime() - DAY_MS));
      const room = Math.min(PER_PASS, (this.quotas[builder.name] ?? 0) - asked);
      if (room <= 0) continue;
      const due = await this.repo.statusDue(
        builder.name,
        new Date(now.getTime() - STATUS_KEPT_MS),
        new Date(now.getTime() - this.delayMs),
        room,
      );
      for (const send of due) {
        const said = await getBundleStatus({
          builder: builder.name,
          bundleHash: send.bundleHash as Hex,
          ...(this.chain.bundleStatusUrls?.[builder.name]
            ? { url: this.chain.bundleStatusUrls[builder.name] }
            : {}),
          ...(builder.authorization ? { authorization: builder.authorization } : {}),
        }).then(saidOf, (error: Error) => {
          // Asked once all the same: a failing service is not asked again every block.
          this.log(`builder statistics: ${builder.name}'s status service: ${error.message}`);
          return {
            status: null,
            statusReason: `its status service could not be read: ${error.message}`,
          };
        });
        await this.repo.recordStatus(send.id, said, now);
      }
    }
  }
}
