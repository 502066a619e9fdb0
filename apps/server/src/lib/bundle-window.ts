import { measureBlockSeconds, windowBlocks } from "@bundler/chain";
import type { ChainContext } from "./chain-context.ts";

/**
 * How long a bundle may wait to land, seconds (BUNDLE_WINDOW_SECONDS): long enough for a head
 * read from a node some blocks behind (a public endpoint's nodes are up to 3 blocks apart, 1.4 s
 * at 0.45 s), the bundle's way to every builder (under a second) and two blocks of their
 * picking it up, with room to spare; short enough that a bundle no builder took is known dead,
 * and its sales retried as a new attempt, within seconds (docs/architecture.md).
 */
export const DEFAULT_BUNDLE_WINDOW_SECONDS = 6;
/** The block time is measured again after this long. */
const MEASURED_FOR_MS = 60_000;

const measured = new WeakMap<ChainContext, { at: number; seconds: Promise<number | null> }>();

/**
 * The blocks a bundle sent now may land in after the head: the chain's window in seconds at its
 * block time, measured from recent blocks (once a minute), never fewer than 3 or more than 100
 * (`windowBlocks`). A read that fails is measured again next time and the window assumes BSC's
 * 0.45 s meanwhile.
 */
export const bundleWindowBlocks = async (chain: ChainContext): Promise<bigint> => {
  if (chain.fixedWindowBlocks) return chain.fixedWindowBlocks;
  let entry = measured.get(chain);
  if (!entry || Date.now() - entry.at > MEASURED_FOR_MS) {
    entry = { at: Date.now(), seconds: measureBlockSeconds(chain.client).catch(() => null) };
    measured.set(chain, entry);
  }
  const seconds = await entry.seconds;
  if (seconds === null) measured.delete(chain);
  return windowBlocks(chain.bundleWindowSeconds ?? DEFAULT_BUNDLE_WINDOW_SECONDS, seconds);
};
