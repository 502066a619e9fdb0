import type { PublicClient } from "viem";

/** A bundle's window is never shorter than this many blocks, whatever the clock says. */
export const MIN_WINDOW_BLOCKS = 3n;
/** Nor longer than builders' own default (current + 100). */
export const MAX_WINDOW_BLOCKS = 100n;
/** How many recent blocks the block time is measured over. */
const SAMPLE_BLOCKS = 50n;

/**
 * The chain's block time, seconds, from the timestamps of the head and the block `sample`
 * before it (BSC's header timestamps are whole seconds; over 50 blocks that is within 2% at
 * 0.45 s). Null when the chain is too young to say or its clock stood still.
 */
export const measureBlockSeconds = async (
  client: PublicClient,
  sample: bigint = SAMPLE_BLOCKS,
): Promise<number | null> => {
  const head = await client.getBlock({ blockTag: "latest" });
  const span = head.number < sample ? head.number : sample;
  if (span === 0n) return null;
  const earlier = await client.getBlock({ blockNumber: head.number - span });
  const seconds = Number(head.timestamp - earlier.timestamp);
  return seconds > 0 ? seconds / Number(span) : null;
};

/**
 * How many blocks a window of `seconds` spans at `blockSeconds` a block: rounded up, within
 * MIN_WINDOW_BLOCKS and MAX_WINDOW_BLOCKS. A block time that could not be measured is taken
 * as `fallbackSeconds` (BSC's 0.45 s: the most blocks, so the longest window in time).
 */
export const windowBlocks = (
  seconds: number,
  blockSeconds: number | null,
  fallbackSeconds = 0.45,
): bigint => {
  const perBlock = blockSeconds && blockSeconds > 0 ? blockSeconds : fallbackSeconds;
  const blocks = BigInt(Math.ceil(seconds / perBlock));
  if (blocks < MIN_WINDOW_BLOCKS) return MIN_WINDOW_BLOCKS;
  return blocks > MAX_WINDOW_BLOCKS ? MAX_WINDOW_BLOCKS : blocks;
};
