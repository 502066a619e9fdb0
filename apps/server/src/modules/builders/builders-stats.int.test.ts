import type { BuilderStats, BuilderStatsResponse } from "@bundler/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userIdOf } from "../../test/admin-data.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { apiCaller } from "../../test/drafts-api.ts";
import { BuildersRepository, type NewBuilderSend } from "./builders.repository.ts";

let app: TestApp;
let admin: string;
let userA: string;
let userB: string;

const HOUR = 3_600_000;
const BUSY = "bundle rejected: busy";
const LOW_TIP = "tip too low";
const SILENT = "no answer in 15000 ms";

type Variant =
  | { answer: "accepted"; landedAfter?: number }
  | { answer: "refused" | "silent" | "skipped"; reason: string };

/** One bundle sent `hoursAgo` by `owner`, as alpha and beta answered it. */
const bundle = (
  owner: "A" | "B",
  hoursAgo: number,
  alpha: Variant,
  beta: Variant,
): Array<Omit<NewBuilderSend, "ownerId"> & { owner: "A" | "B" }> => {
  const bundleId = crypto.randomUUID();
  const sentAt = new Date(Date.now() - hoursAgo * HOUR);
  return (
    [
      ["alpha", alpha],
      ["beta", beta],
    ] as const
  ).map(([builder, v], i) => ({
    owner,
    bundleId,
    kind: "launch",
    subject: bundleId,
    builder,
    answer: v.answer,
    reason: v.answer === "accepted" ? null : v.reason,
    sentAt,
    answerMs: 40,
    tipHash: `0x${bundleId.replaceAll("-", "")}${i}`,
    maxBlockNumber: 105n,
    headAtSend: 100n,
    // A silent builder's variant still waits for the chain's word; a skipped one never has one.
    outcome:
      v.answer === "accepted"
        ? v.landedAfter !== undefined
          ? "landed"
          : "not-landed"
        : v.answer === "refused"
          ? "not-landed"
          : null,
    landedBlock:
      v.answer === "accepted" && v.landedAfter !== undefined ? 100n + BigInt(v.landedAfter) : null,
  }));
};

const landed = (blocks: number): Variant => ({ answer: "accepted", landedAfter: blocks });
const accepted: Variant = { answer: "accepted" };
const refused = (reason: string): Variant => ({ answer: "refused", reason });

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.auth.mintKey("admin");
  userA = await app.auth.mintKey("user");
  userB = await app.auth.mintKey("user");
  const owners = { A: await userIdOf(app, userA), B: await userIdOf(app, userB) };
  const rows = [
    bundle("A", 1, landed(1), accepted),
    bundle("A", 2, landed(3), { answer: "silent", reason: SILENT }),
    bundle("B", 3, landed(2), refused(BUSY)),
    bundle("A", 4, refused(BUSY), landed(4)),
    bundle("B", 5, refused(BUSY), { answer: "skipped", reason: "exceeds its cap of 3" }),
    bundle("A", 6, refused(LOW_TIP), refused(BUSY)),
    bundle("A", 48, landed(10), accepted),
    bundle("A", 240, landed(1), refused(BUSY)),
  ].flat();
  await new BuildersRepository(app.database.db).insert(
    rows.map(({ owner, ...row }) => ({ ...row, ownerId: owners[owner] })),
  );
});
afterAll(async () => {
  await app?.close();
});

const call = apiCaller(
  () => app,
  () => admin,
);

const statsOf = async (path: string, key: string) => {
  const { status, body } = await call("GET", path, undefined, key);
  expect(status).toBe(200);
  const { windows } = body as BuilderStatsResponse;
  expect(windows.map((w) => w.hours)).toEqual([24, 168]);
  const of = (i: number, builder: string): BuilderStats | undefined =>
    windows[i]?.builders.find((b) => b.builder === builder);
  return { windows, day: (b: string) => of(0, b), week: (b: string) => of(1, b) };
};

describe("GET /api/admin/builders/stats", () => {
  it("is for admins only", async () => {
    expect((await call("GET", "/api/admin/builders/stats", undefined, userA)).status).toBe(403);
    const anonymous = await app.server.inject({ method: "GET", url: "/api/admin/builders/stats" });
    expect(anonymous.statusCode).toBe(401);
  });

  it("counts every send, answer and landing per builder over 24 hours and 7 days", async () => {
    const { windows, day, week } = await statsOf("/api/admin/builders/stats", admin);
    expect(windows.map((w) => [w.bundles, w.landed])).toEqual([
      [6, 4],
      [7, 5],
    ]);
    expect(day("alpha")).toEqual({
      builder: "alpha",
      sent: 6,
      accepted: 3,
      refused: 3,
      silent: 0,
      skipped: 0,
      landed: 3,
      landingShare: 0.75,
      medianBlocks: 2,
      p95Blocks: expect.closeTo(2.9),
      topRefusals: [
        { reason: BUSY, count: 2 },
        { reason: LOW_TIP, count: 1 },
      ],
      notLanded: [],
    });
    expect(day("beta")).toEqual({
      builder: "beta",
      sent: 5,
      accepted: 2,
      refused: 2,
      silent: 1,
      skipped: 1,
      landed: 1,
      landingShare: 0.25,
      medianBlocks: 4,
      p95Blocks: 4,
      topRefusals: [
        { reason: BUSY, count: 2 },
        { reason: SILENT, count: 1 },
      ],
      notLanded: [],
    });
    expect(week("alpha")).toMatchObject({ sent: 7, accepted: 4, landed: 4, landingShare: 0.8 });
    expect(week("alpha")?.medianBlocks).toBe(2.5);
    expect(week("alpha")?.p95Blocks).toBeCloseTo(8.95);
    expect(week("beta")).toMatchObject({ sent: 6, accepted: 3, landed: 1, landingShare: 0.2 });
  });
});

describe("GET /api/bundle/builders/stats", () => {
  it("counts the caller's own bundles only", async () => {
    const a = await statsOf("/api/bundle/builders/stats", userA);
    expect(a.windows.map((w) => [w.bundles, w.landed])).toEqual([
      [4, 3],
      [5, 4],
    ]);
    expect(a.day("alpha")).toMatchObject({
      sent: 4,
      accepted: 2,
      refused: 2,
      landed: 2,
      medianBlocks: 2,
      topRefusals: [
        { reason: BUSY, count: 1 },
        { reason: LOW_TIP, count: 1 },
      ],
    });
    expect(a.day("beta")).toMatchObject({ sent: 4, accepted: 2, refused: 1, silent: 1, landed: 1 });

    const b = await statsOf("/api/bundle/builders/stats", userB);
    expect(b.windows.map((w) => [w.bundles, w.landed])).toEqual([
      [2, 1],
      [2, 1],
    ]);
    expect(b.day("alpha")).toMatchObject({ sent: 2, accepted: 1, refused: 1, landed: 1 });
    expect(b.day("beta")).toMatchObject({ sent: 1, refused: 1, skipped: 1, landed: 0 });
    expect(b.day("beta")?.landingShare).toBe(0);
  });
});
