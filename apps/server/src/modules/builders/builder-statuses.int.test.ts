import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builderSends } from "../../db/schema.ts";
import { useLaunchTestbed } from "../launch/launch.test-support.ts";
import { LANDING_LAG_BLOCKS } from "./builder-landings.ts";
import { BuilderStatuses } from "./builder-statuses.ts";
import { BuildersRepository } from "./builders.repository.ts";

// The two local builders named as on BSC, each taking a launch's bundle and never landing it,
// and fake status services answering as the reference describes them
// (bsc-launchpad-and-builders.md, "Finding out what became of a bundle"): 48 Club's explore
// API (submitted, not confirmed yet) and BlockRazor's bundlestate (failed, with its err).
const asked: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
let services: Server;
let base = "";
beforeAll(async () => {
  services = createServer((request, response) => {
    asked.push({ path: request.url ?? "", headers: request.headers });
    const body = request.url?.startsWith("/v2/bundle")
      ? { submitted: true, confirmed: false }
      : { state: "failed", err: "bundle gas price lower than the block's lowest" };
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => services.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(services.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => services.close(resolve)));

const ctx = useLaunchTestbed({
  slowBuilderMaxTxs: 5,
  bundleTimeoutMs: 3000,
  chainAs: (chain) => ({
    ...chain,
    builders: chain.builders.map((b) =>
      b.name === "local"
        ? { ...b, name: "48club" }
        : { ...b, name: "blockrazor", authorization: "razor-key" },
    ),
    bundleStatusUrls: { "48club": `${base}/v2/bundle`, blockrazor: `${base}/bundlestate` },
  }),
});

/** Launches a funded two-wallet draft whose bundle both builders take and never land. */
const launchThatNeverLands = async () => {
  await ctx.testChain.faults({ acceptWithoutLanding: 1 });
  await ctx.testChain.faults({ acceptWithoutLanding: 1 }, "local-slow");
  const { id, input } = await ctx.paidDraft(2);
  await ctx.setBalance(input.deployerWallet.address, parseEther("1"));
  for (const w of input.walletConfig.wallets) await ctx.setBalance(w.address, parseEther("0.2"));
  await ctx.captureTerminal(async () => {
    expect((await ctx.call("POST", `/api/draft/${id}/execute`)).status).toBe(200);
    await ctx.app.launches.idle();
  });
  await ctx.app.builderSends.idle();
  const rows = await ctx.app.database.db.select().from(builderSends);
  const last = rows.reduce((a, b) => (a.sentAt > b.sentAt ? a : b));
  const end = Number(last.maxBlockNumber + LANDING_LAG_BLOCKS) + 1;
  while (Number(await ctx.chain.client.getBlockNumber()) <= end) await ctx.testChain.mine();
  await ctx.app.builderLandings?.pass();
  return last.bundleId;
};

const rowsOf = (bundleId: string) =>
  ctx.app.database.db.select().from(builderSends).where(eq(builderSends.bundleId, bundleId));

describe("why a bundle a builder took did not land", () => {
  it("is asked of each builder's status service once, by the hash it answered, and kept in its words", async () => {
    const bundleId = await launchThatNeverLands();
    const before = await rowsOf(bundleId);
    expect(before.map((r) => [r.builder, r.answer, r.outcome]).sort()).toEqual([
      ["48club", "accepted", "not-landed"],
      ["blockrazor", "accepted", "not-landed"],
    ]);
    const statuses = new BuilderStatuses(
      new BuildersRepository(ctx.app.database.db),
      ctx.chain,
      () => {},
      { delayMs: 0 },
    );
    asked.length = 0;
    await statuses.pass();
    await statuses.pass();
    const after = new Map((await rowsOf(bundleId)).map((r) => [r.builder, r]));
    expect(after.get("48club")).toMatchObject({
      status: "pending",
      statusReason: "not decided by its status service when asked",
    });
    expect(after.get("blockrazor")).toMatchObject({
      status: "failed",
      statusReason: "bundle gas price lower than the block's lowest",
    });
    // Once each, by the bundle hash the builder answered; BlockRazor's key goes with its question.
    expect(asked.map((a) => a.path).sort()).toEqual(
      [
        `/bundlestate?hash=${after.get("blockrazor")?.bundleHash}`,
        `/v2/bundle?hash=${after.get("48club")?.bundleHash}`,
      ].sort(),
    );
    expect(asked.find((a) => a.path.startsWith("/bundlestate"))?.headers.authorization).toBe(
      "razor-key",
    );

    const { body } = await ctx.call("GET", "/api/bundle/builders/stats");
    const day = (
      body.windows as Array<{
        hours: number;
        builders: Array<{ builder: string; notLanded: unknown }>;
      }>
    ).find((w) => w.hours === 24);
    expect(day?.builders.find((b) => b.builder === "blockrazor")?.notLanded).toEqual([
      { reason: "bundle gas price lower than the block's lowest", count: 1 },
    ]);
  });

  it("asks no service more than its daily quota", async () => {
    const bundleId = await launchThatNeverLands();
    const statuses = new BuilderStatuses(
      new BuildersRepository(ctx.app.database.db),
      ctx.chain,
      () => {},
      // BlockRazor was asked once today already (the test above): its quota of 1 is spent.
      { delayMs: 0, quotas: { blockrazor: 1 } },
    );
    asked.length = 0;
    await statuses.pass();
    const after = new Map((await rowsOf(bundleId)).map((r) => [r.builder, r]));
    expect(after.get("48club")?.status).toBe("pending");
    expect(after.get("blockrazor")?.statusAt).toBeNull();
    expect(asked.map((a) => a.path.split("?")[0])).toEqual(["/v2/bundle"]);
  });

  it("waits until a bundle is old enough for the services to know it", async () => {
    const bundleId = await launchThatNeverLands();
    const statuses = new BuilderStatuses(
      new BuildersRepository(ctx.app.database.db),
      ctx.chain,
      () => {},
    );
    asked.length = 0;
    await statuses.pass();
    expect(asked).toEqual([]);
    expect((await rowsOf(bundleId)).every((r) => r.statusAt === null)).toBe(true);
  });
});
