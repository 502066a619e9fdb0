import { describe, expect, it } from "vitest";
import { profiles } from "../profiles.ts";
import { getBnbPrice, MAX_PRICE_AGE_SECONDS, priceFromRound } from "./getBnbPrice.ts";

const NOW = 1_800_000_000;

describe("the BNB price", () => {
  it("reads a fresh Chainlink round's 8 decimals as dollars", () => {
    expect(priceFromRound({ answer: 61_234_000_000n, updatedAt: BigInt(NOW - 60) }, NOW)).toBe(
      612.34,
    );
  });

  it("refuses a round at or below zero", () => {
    expect(() => priceFromRound({ answer: 0n, updatedAt: BigInt(NOW) }, NOW)).toThrow(
      "the BNB/USD feed answered 0, not a price",
    );
    expect(() => priceFromRound({ answer: -5n, updatedAt: BigInt(NOW) }, NOW)).toThrow(
      "not a price",
    );
  });

  it("refuses a round older than a day", () => {
    const updatedAt = BigInt(NOW - MAX_PRICE_AGE_SECONDS - 1);
    expect(() => priceFromRound({ answer: 60_000_000_000n, updatedAt }, NOW)).toThrow(
      `the BNB/USD feed is stale: its last round is ${MAX_PRICE_AGE_SECONDS + 1} s old`,
    );
  });

  it("answers the local profile's fixed number without a call", async () => {
    const client = {} as Parameters<typeof getBnbPrice>[0];
    await expect(getBnbPrice(client, { profile: profiles.local })).resolves.toBe(600);
  });
});
