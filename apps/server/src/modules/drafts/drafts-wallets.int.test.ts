import { generateKeyPairSync, webcrypto } from "node:crypto";
import { TOTAL_SUPPLY } from "@bundler/contracts";
import { sql } from "drizzle-orm";
import { parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { useDraftsTestbed, wallet } from "./drafts.test-support.ts";

// Generating, pricing and importing the wallets a draft buys with.
const ctx = useDraftsTestbed();
const { call } = ctx;

describe("wallets", () => {
  it("generates wallets in an envelope the browser opens with WebCrypto", async () => {
    const subtle = webcrypto.subtle;
    const pair = await subtle.generateKey(
      {
        name: "RSA-OAEP",
        modulusLength: 2048,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: "SHA-256",
      },
      true,
      ["encrypt", "decrypt"],
    );
    const spki = Buffer.from(await subtle.exportKey("spki", pair.publicKey)).toString("base64");
    const answer = await call(ctx.keyA, "POST", "/api/wallets/gen", {
      walletCount: 5,
      minBuyAmount: "0.01",
      maxBuyAmount: "0.05",
      isPercentage: false,
      publicKey: spki,
    });
    expect(answer.status).toBe(200);
    const envelope = JSON.parse(
      Buffer.from(answer.body.encryptedKeys as string, "base64").toString("utf8"),
    );
    const rawAes = await subtle.decrypt(
      { name: "RSA-OAEP" },
      pair.privateKey,
      Buffer.from(envelope.encryptedKey, "base64"),
    );
    const aes = await subtle.importKey("raw", rawAes, { name: "AES-GCM" }, false, ["decrypt"]);
    const plain = await subtle.decrypt(
      { name: "AES-GCM", iv: Buffer.from(envelope.iv, "base64") },
      aes,
      Buffer.from(envelope.encryptedData, "base64"),
    );
    const keys = JSON.parse(Buffer.from(plain).toString("utf8")) as Array<{
      address: string;
      privateKey: `0x${string}`;
    }>;
    const wallets = answer.body.wallets as Array<{
      address: string;
      bnbAmount: { buyValue: string; tokenAmount: string };
    }>;
    expect(keys).toHaveLength(5);
    for (const [i, key] of keys.entries()) {
      expect(privateKeyToAccount(key.privateKey).address).toBe(key.address);
      expect(wallets[i]?.address).toBe(key.address);
      const value = parseEther(wallets[i]?.bnbAmount.buyValue ?? "0");
      expect(value).toBeGreaterThanOrEqual(parseEther("0.01"));
      expect(value).toBeLessThanOrEqual(parseEther("0.05"));
      expect(value % 10n ** 9n).toBe(0n);
    }
    // Stored encrypted before being returned.
    const stored = (
      await ctx.app.database.db.execute(
        sql`select address from wallet_keys where purpose = 'bundle' and draft_id is null`,
      )
    ).rows;
    for (const key of keys)
      expect(stored.map((r) => (r as { address: string }).address)).toContain(key.address);
  });

  it("rejects a public key that is not SPKI", async () => {
    const answer = await call(ctx.keyA, "POST", "/api/wallets/gen", {
      walletCount: 1,
      minBuyAmount: "0.01",
      maxBuyAmount: "0.02",
      isPercentage: false,
      publicKey: "A".repeat(200),
    });
    expect(answer.status).toBe(400);
  });

  it("accepts a node-generated SPKI key too", async () => {
    const { publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const spki = publicKey.export({ type: "spki", format: "der" }).toString("base64");
    const answer = await call(ctx.keyA, "POST", "/api/wallets/gen", {
      walletCount: 1,
      minBuyAmount: "0.01",
      maxBuyAmount: "0.02",
      isPercentage: false,
      publicKey: spki,
    });
    expect(answer.status).toBe(200);
  });

  it("generates amounts within [min, max], in BNB and in percent of supply", async () => {
    const addresses = Array.from({ length: 40 }, () => wallet().address);
    const bnb = await call(ctx.keyA, "POST", "/api/wallets/gen/amounts", {
      wallets: addresses,
      minBuyAmount: "0.1",
      maxBuyAmount: "0.2",
      isPercentage: false,
    });
    for (const entry of bnb.body.bnbAmounts as Array<{ buyValue: string; tokenAmount: string }>) {
      const value = parseEther(entry.buyValue);
      expect(value >= parseEther("0.1") && value <= parseEther("0.2")).toBe(true);
      expect(BigInt(entry.tokenAmount)).toBeGreaterThan(0n);
    }
    const percent = await call(ctx.keyA, "POST", "/api/wallets/gen/amounts", {
      wallets: addresses,
      minBuyAmount: "0.5",
      maxBuyAmount: "1.5",
      isPercentage: true,
    });
    const amounts = percent.body.bnbAmounts as Array<{
      address: string;
      buyValue: string;
      tokenAmount: string;
    }>;
    expect(amounts.map((a) => a.address)).toEqual(addresses);
    for (const entry of amounts) {
      // 0.5–1.5% of the supply each, give or take the gwei the buy value is rounded to.
      const tokens = BigInt(entry.tokenAmount);
      expect(tokens * 1000n >= TOTAL_SUPPLY * 5n - 10n ** 12n).toBe(true);
      expect(tokens * 1000n <= TOTAL_SUPPLY * 15n + 10n ** 24n).toBe(true);
      // Priced in sequence: at least what 0.5% costs on a fresh 24-BNB curve (~0.04 BNB).
      const value = parseEther(entry.buyValue);
      expect(value > parseEther("0.03")).toBe(true);
      expect(value % 10n ** 9n).toBe(0n);
    }
    const inverted = await call(ctx.keyA, "POST", "/api/wallets/gen/amounts", {
      wallets: addresses,
      minBuyAmount: "2",
      maxBuyAmount: "1",
      isPercentage: false,
    });
    expect(inverted.status).toBe(400);
    expect(inverted.body.error).toBe(
      "Minimum buy amount cannot be greater than maximum buy amount",
    );
  });

  it("quotes generated amounts in the bundle's order: after the creator's buy, the sniper last", async () => {
    const addresses = Array.from({ length: 4 }, () => wallet().address);
    const amounts = async (extra: Record<string, unknown>) => {
      const answer = await call(ctx.keyA, "POST", "/api/wallets/gen/amounts", {
        wallets: addresses,
        minBuyAmount: "1",
        maxBuyAmount: "1",
        isPercentage: false,
        ...extra,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.curve).toEqual({ graduates: false, soldOut: false, warning: null });
      return (answer.body.bnbAmounts as Array<{ tokenAmount: string }>).map((a) =>
        BigInt(a.tokenAmount),
      );
    };
    const alone = await amounts({});
    for (let i = 1; i < alone.length; i++)
      expect(alone[i] as bigint).toBeLessThan(alone[i - 1] as bigint);
    const afterCreator = await amounts({ creatorBuy: "2" });
    expect(afterCreator[0] as bigint).toBeLessThan(alone[0] as bigint);
    const sniped = await amounts({ delaySnipeAddress: addresses[0] });
    expect(sniped[1]).toBe(alone[0]);
    expect(sniped[0]).toBe(alone[3]);
  });

  it("warns when the generated amounts would sell the curve out inside the bundle", async () => {
    const answer = await call(ctx.keyA, "POST", "/api/wallets/gen/amounts", {
      wallets: Array.from({ length: 5 }, () => wallet().address),
      minBuyAmount: "20",
      maxBuyAmount: "20",
      isPercentage: true,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.curve).toMatchObject({ soldOut: true, graduates: true });
    expect((answer.body.curve as { warning: string }).warning).toMatch(
      /sold out before the buy of wallet 0x[0-9a-fA-F]{40}, so the launch would be refused/,
    );
  });

  it("imports valid keys, drops invalid ones, refuses when none is valid", async () => {
    const good = wallet();
    const answer = await call(ctx.keyA, "POST", "/api/wallets/import", {
      privateKeys: [good.privateKey.slice(2), "nope", "0x1234"],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.wallets).toEqual([{ address: good.address, privateKey: good.privateKey }]);
    const none = await call(ctx.keyA, "POST", "/api/wallets/import", { privateKeys: ["nope"] });
    expect(none.status).toBe(400);
    expect(none.body.error).toBe("No valid private keys entered");
  });

  it("answers 503 for balances without a chain", async () => {
    const answer = await call(ctx.keyA, "POST", "/api/wallets/balances", {
      addresses: [wallet().address],
    });
    expect(answer.status).toBe(503);
  });
});
