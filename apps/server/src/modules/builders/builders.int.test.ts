import type { BuilderStatsResponse, Draft } from "@bundler/shared";
import { eq } from "drizzle-orm";
import { parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { builderSends } from "../../db/schema.ts";
import { useLaunchTestbed } from "../launch/launch.test-support.ts";
import { LANDING_LAG_BLOCKS } from "./builder-landings.ts";

// Two builders in front of one chain: each launch is one send to both, one row per builder.
const ctx = useLaunchTestbed({ slowBuilderMaxTxs: 5, bundleTimeoutMs: 2000 });
const { setBalance, call, captureTerminal, paidDraft } = ctx;

/** Launches a paid, funded two-wallet draft; answers the draft and the terminal's lines. */
const launch = async () => {
  const { id, input } = await paidDraft(2);
  await setBalance(input.deployerWallet.address, parseEther("1"));
  for (const w of input.walletConfig.wallets) await setBalance(w.address, parseEther("0.2"));
  const lines = await captureTerminal(async () => {
    expect((await call("POST", `/api/draft/${id}/execute`)).status).toBe(200);
    await ctx.app.launches.idle();
  });
  const draft = (await call("GET", `/api/draft/${id}`)).body.draft as Draft;
  expect(draft.status, lines.join("\n")).toBe("executed");
  return { draft, lines, wallets: input.walletConfig.wallets.map((w) => w.address) };
};

/** The latest launch's rows, by builder, once every pass the chain allows has judged them. */
const lastSend = async () => {
  await ctx.app.builderSends.idle();
  const rows = await ctx.app.database.db
    .select()
    .from(builderSends)
    .where(eq(builderSends.ownerId, ctx.userId));
  const latest = rows.reduce((a, b) => (a.sentAt > b.sentAt ? a : b));
  const send = rows.filter((row) => row.bundleId === latest.bundleId);
  // Past the window and the margin for a lagging node: every variant is judged.
  const end = Number(latest.maxBlockNumber + LANDING_LAG_BLOCKS) + 1;
  while (Number(await ctx.chain.client.getBlockNumber()) <= end) await ctx.testChain.mine();
  await ctx.app.builderLandings?.pass();
  const judged = await ctx.app.database.db
    .select()
    .from(builderSends)
    .where(eq(builderSends.bundleId, latest.bundleId));
  return {
    send,
    by: (builder: string) => {
      const row = judged.find((r) => r.builder === builder);
      if (!row) throw new Error(`no row for ${builder}`);
      return row;
    },
  };
};

const LANDED = /landed through (\S+) in block (\d+) \(sent to (\d+) builders?\)/;

describe("the builders' record of a launch", () => {
  it("records each builder's answer and resolves the landed one from the chain", async () => {
    const { draft, lines } = await launch();
    const said = lines.map((line) => LANDED.exec(line)).find(Boolean);
    expect(said?.slice(1), lines.join("\n")).toEqual([
      "local",
      draft.launch?.blockNumber.toString(),
      "2",
    ]);

    const { send, by } = await lastSend();
    expect(send).toHaveLength(2);
    for (const row of send) {
      expect(row).toMatchObject({ kind: "launch", answer: "accepted", reason: null });
      expect(row.subject).toBeTruthy();
      expect(row.tipHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(row.answerMs).toBeGreaterThanOrEqual(0);
      expect(row.maxBlockNumber).toBe(row.headAtSend + 5n);
    }
    const local = by("local");
    expect(local.outcome).toBe("landed");
    expect(local.landedBlock).toBe(BigInt(draft.launch?.blockNumber ?? 0));
    expect(local.landedBlock).toBeGreaterThan(local.headAtSend);
    // The tip that landed is in that block, and the other variant's never is.
    const receipt = await ctx.chain.client.getTransactionReceipt({
      hash: local.tipHash as `0x${string}`,
    });
    expect(receipt.blockNumber).toBe(local.landedBlock);
    expect(by("local-slow")).toMatchObject({ outcome: "not-landed", landedBlock: null });
  });

  it("keeps a refusal in the builder's words, and one that never answered", async () => {
    await ctx.testChain.faults({ refuseBundles: { times: 1, message: "bundle rejected: busy" } });
    const { lines } = await launch();
    expect(lines.some((line) => line.includes("landed through local-slow in block"))).toBe(true);
    const refused = await lastSend();
    expect(refused.by("local")).toMatchObject({
      answer: "refused",
      reason: "bundle rejected: busy",
      outcome: "not-landed",
    });
    expect(refused.by("local-slow")).toMatchObject({ answer: "accepted", outcome: "landed" });

    await ctx.testChain.faults({ silentBundles: 1 }, "local-slow");
    await launch();
    const silent = await lastSend();
    expect(silent.by("local-slow")).toMatchObject({
      answer: "silent",
      reason: "no answer in 2000 ms",
      outcome: "not-landed",
    });
    expect(silent.by("local-slow").answerMs).toBeGreaterThanOrEqual(1900);
    expect(silent.by("local")).toMatchObject({ answer: "accepted", outcome: "landed" });
  });

  it("shows a user the statistics of their own bundles only", async () => {
    const mine = (await call("GET", "/api/bundle/builders/stats")).body as BuilderStatsResponse;
    const day = mine.windows[0];
    expect(day?.hours).toBe(24);
    expect(day?.bundles).toBe(3);
    expect(day?.landed).toBe(3);
    const local = day?.builders.find((b) => b.builder === "local");
    expect(local).toMatchObject({ sent: 3, accepted: 2, refused: 1, landed: 2 });
    expect(local?.topRefusals).toEqual([{ reason: "bundle rejected: busy", count: 1 }]);
    const slow = day?.builders.find((b) => b.builder === "local-slow");
    expect(slow).toMatchObject({ sent: 3, accepted: 2, silent: 1, landed: 1 });
    expect((local?.landingShare ?? 0) + (slow?.landingShare ?? 0)).toBeCloseTo(1);

    const theirs = (await call("GET", "/api/bundle/builders/stats", undefined, ctx.otherKey))
      .body as BuilderStatsResponse;
    expect(theirs.windows.map((w) => [w.bundles, w.builders])).toEqual([
      [0, []],
      [0, []],
    ]);
  });

  it("fails a launch both builders refuse with each builder's words, and keeps the draft paid", async () => {
    await ctx.testChain.faults({ refuseBundles: { times: 1, message: "bundle rejected: busy" } });
    await ctx.testChain.faults(
      { refuseBundles: { times: 1, message: "bundle rejected: tip too low for this slot" } },
      "local-slow",
    );
    const { id, input } = await paidDraft(2);
    await setBalance(input.deployerWallet.address, parseEther("1"));
    for (const w of input.walletConfig.wallets) await setBalance(w.address, parseEther("0.2"));
    const lines = await captureTerminal(async () => {
      expect((await call("POST", `/api/draft/${id}/execute`)).status).toBe(200);
      await ctx.app.launches.idle();
    });
    const failed = lines.find((line) => line.startsWith("FAILED launch:")) ?? lines.join("\n");
    expect(failed).toContain("builder local refused: bundle rejected: busy;");
    expect(failed).toContain(
      "builder local-slow refused: bundle rejected: tip too low for this slot",
    );
    expect(((await call("GET", `/api/draft/${id}`)).body.draft as Draft).status).toBe("paid");
  });

  it("records a sell bundle's sends too, by the token sold", async () => {
    const { draft, wallets } = await launch();
    const token = draft.launch?.tokenAddress as string;
    const sold = await call("POST", "/api/bundle/wallets/sell", {
      address: token,
      wallets,
      amount: "100",
      isPercentage: true,
    });
    expect(sold.status, JSON.stringify(sold.body)).toBe(200);
    const { send, by } = await lastSend();
    expect(send.map((row) => [row.kind, row.subject, row.answer])).toEqual([
      ["sell", token.toLowerCase(), "accepted"],
      ["sell", token.toLowerCase(), "accepted"],
    ]);
    expect([by("local").outcome, by("local-slow").outcome].sort()).toEqual([
      "landed",
      "not-landed",
    ]);
  });
});
