import { createHash } from "node:crypto";
import type { Draft, DraftSummary } from "@bundler/shared";
import { eq, inArray } from "drizzle-orm";
import { type Address, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { drafts as draftsTable } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { draftInput, newWallet, PNG_LOGO } from "../../test/drafts-api.ts";

let testChain: TestChain;
let app: TestApp;
const masterKey = Buffer.alloc(32, 9);

beforeAll(async () => {
  testChain = await startTestChain(masterKey);
  app = await createTestApp({
    chain: testChain.chain,
    masterKey,
    bodyLimitBytes: 2 * 1024 * 1024,
  });
});
afterAll(async () => {
  await app?.close();
  await testChain?.stop();
});

interface ListAnswer {
  success: boolean;
  drafts: DraftSummary[];
  total: number;
  page: number;
  pageSize: number;
}

const get = (url: string, key?: string, headers: Record<string, string> = {}) =>
  app.server.inject({
    method: "GET",
    url,
    headers: { ...(key ? { "x-auth-key": key } : {}), ...headers },
  });

const list = async (key: string, query = "") => {
  const response = await get(`/api/draft/list${query}`, key);
  return { status: response.statusCode, raw: response.body, body: response.json() as ListAnswer };
};

/** Every page of the list, in order. */
const allPages = async (key: string) => {
  const pages: ListAnswer[] = [];
  for (let page = 1; ; page++) {
    const { body } = await list(key, `?page=${page}`);
    pages.push(body);
    if (page * body.pageSize >= body.total) return pages;
  }
};

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** Creates a draft for `key` (a deployer, two wallets, a tip payer) and answers its id and keys. */
const createDraft = async (key: string, name: string, image = PNG_LOGO) => {
  const tipPayer = newWallet();
  const input = draftInput(2, () => ({ tipPayer }));
  input.tokenInfo = { ...input.tokenInfo, name, image };
  const response = await app.server.inject({
    method: "POST",
    url: "/api/draft/create",
    headers: { "x-auth-key": key },
    payload: input,
  });
  expect(response.statusCode, response.body).toBe(200);
  const id = (response.json() as { draftId: string }).draftId;
  const keys = [
    input.deployerWallet.privateKey,
    tipPayer.privateKey,
    ...input.walletConfig.wallets.map((w) => w.privateKey),
  ];
  return { id, input, tipPayer, keys };
};

describe("GET /api/draft/list", () => {
  let key: string;
  let created: Array<Awaited<ReturnType<typeof createDraft>>>;

  beforeAll(async () => {
    key = await app.auth.mintKey("user");
    created = [];
    for (let n = 1; n <= 20; n++) created.push(await createDraft(key, `Paged ${n}`));
  });

  it("answers nine drafts a page with the total, newest change first", async () => {
    const first = await list(key);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, total: 20, page: 1, pageSize: 9 });
    expect(first.body.drafts).toHaveLength(9);
    expect((await list(key, "?page=1")).body).toEqual(first.body);

    const pages = await allPages(key);
    expect(pages.map((p) => p.drafts.length)).toEqual([9, 9, 2]);
    expect(pages.map((p) => p.page)).toEqual([1, 2, 3]);
    expect(pages.every((p) => p.total === 20)).toBe(true);
    expect(pages.flatMap((p) => p.drafts.map((d) => d.tokenInfo.name))).toEqual(
      created.map((_, i) => `Paged ${20 - i}`),
    );

    const past = await list(key, "?page=4");
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ drafts: [], total: 20, page: 4 });
  });

  it("carries no private key and no inline logo, only addresses and the logo's URL", async () => {
    const raw = (await Promise.all([1, 2, 3].map((page) => list(key, `?page=${page}`))))
      .map((answer) => answer.raw)
      .join("\n")
      .toLowerCase();
    for (const { keys } of created)
      for (const privateKey of keys) expect(raw).not.toContain(privateKey.slice(2).toLowerCase());
    expect(raw).not.toContain("privatekey");
    expect(raw).not.toContain("data:image");

    const [summary] = (await list(key)).body.drafts;
    const source = created.find((c) => c.id === summary?._id);
    expect(summary?.deployerWallet).toEqual({ address: source?.input.deployerWallet.address });
    expect(summary?.walletConfig.wallets.map((w) => w.address)).toEqual(
      source?.input.walletConfig.wallets.map((w) => w.address),
    );
    expect(summary?.walletConfig.tipPayer).toEqual({ address: source?.tipPayer.address });
    expect(summary?.tokenInfo.imageUrl).toBe(`/api/draft/logo/${sha256(PNG_LOGO)}`);
    expect(summary?.tokenInfo).not.toHaveProperty("image");

    // The whole draft, keys and logo, stays one call away for its owner.
    const whole = (await get(`/api/draft/${summary?._id}`, key)).json() as { draft: Draft };
    expect(whole.draft.deployerWallet?.privateKey).toBe(source?.input.deployerWallet.privateKey);
    expect(whole.draft.tokenInfo.image).toBe(PNG_LOGO);
  });

  it("never shows another user's drafts, and shows them none of these", async () => {
    const other = await app.auth.mintKey("user");
    expect((await list(other)).body).toMatchObject({ drafts: [], total: 0, page: 1 });
    const theirs = [await createDraft(other, "Theirs 1"), await createDraft(other, "Theirs 2")];

    const mine = (await allPages(key)).flatMap((p) => p.drafts.map((d) => d._id));
    expect(mine).toHaveLength(20);
    for (const { id } of theirs) expect(mine).not.toContain(id);
    const seen = (await list(other)).body;
    expect(seen.total).toBe(2);
    expect(seen.drafts.map((d) => d._id).sort()).toEqual(theirs.map((t) => t.id).sort());
  });

  it("refuses a page that is not a whole number from 1 with a 400 that says so", async () => {
    for (const page of ["0", "-1", "abc", "1.5", "", "1e3", "2&page=3"]) {
      const answer = await list(key, `?page=${page}`);
      expect(answer.status, page).toBe(400);
      expect(answer.body, page).toEqual({
        success: false,
        error: "page must be a whole number from 1 up",
      });
    }
    const huge = await list(key, "?page=100001");
    expect(huge.status).toBe(400);
    expect((huge.body as unknown as { error: string }).error).toBe("page must be at most 100000");
  });

  it("asks for a key: the list is not public", async () => {
    expect((await get("/api/draft/list")).statusCode).toBe(401);
  });
});

describe("the list's logo URLs", () => {
  it("link PNG, JPEG, GIF and WebP logos and follow an edit; anything else has none", async () => {
    const owner = await app.auth.mintKey("user");
    const svg = `data:image/svg+xml;base64,${Buffer.from("<svg/>").toString("base64")}`;
    const bare = PNG_LOGO.slice(PNG_LOGO.indexOf(",") + 1);
    for (const image of [svg, bare, ""]) await createDraft(owner, "No URL", image);
    const { id, input } = await createDraft(owner, "Edited");
    const jpeg = `data:image/jpeg;base64,${Buffer.from([0xff, 0xd8, 0xff]).toString("base64")}`;
    const edited = await app.server.inject({
      method: "PUT",
      url: `/api/draft/${id}`,
      headers: { "x-auth-key": owner },
      payload: { ...input, tokenInfo: { ...input.tokenInfo, image: jpeg } },
    });
    expect(edited.statusCode).toBe(200);

    const { drafts } = (await list(owner)).body;
    expect(drafts.map((d) => d.tokenInfo.imageUrl)).toEqual([
      `/api/draft/logo/${sha256(jpeg)}`,
      null,
      null,
      null,
    ]);
    const logo = await get(drafts[0]?.tokenInfo.imageUrl as string);
    expect(logo.statusCode).toBe(200);
    expect(logo.headers["content-type"]).toBe("image/jpeg");
  });
});

describe("launch readiness in the list", () => {
  it("says, per draft, what paying needs first in SPEC §5's words, or null when ready", async () => {
    const owner = await app.auth.mintKey("user");
    const post = async (input: unknown) => {
      const response = await app.server.inject({
        method: "POST",
        url: "/api/draft/create",
        headers: { "x-auth-key": owner },
        payload: input as object,
      });
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as { draftId: string }).draftId;
    };
    const ready = draftInput(1);
    const { deployerWallet: _none, ...noDeployer } = draftInput(1);
    const noLogo = draftInput(1);
    noLogo.tokenInfo.image = "";
    const noTip = draftInput(1);
    noTip.walletConfig.tip = "";
    const ids = {
      ready: await post(ready),
      noDeployer: await post(noDeployer),
      noLogo: await post(noLogo),
      noTip: await post(noTip),
    };

    const problems = new Map((await list(owner)).body.drafts.map((d) => [d._id, d.launchProblem]));
    expect(problems.get(ids.ready)).toBeNull();
    expect(problems.get(ids.noDeployer)).toBe("Invalid deployer private key");
    expect(problems.get(ids.noLogo)).toBe("Please upload a logo");
    expect(problems.get(ids.noTip)).toBe("Please enter a tip amount");

    // The whole draft says the same, and paying refuses with those words.
    const whole = (await get(`/api/draft/${ids.noLogo}`, owner)).json() as { draft: Draft };
    expect(whole.draft.launchProblem).toBe("Please upload a logo");
    const pay = await app.server.inject({
      method: "POST",
      url: `/api/draft/${ids.noLogo}/payment`,
      headers: { "x-auth-key": owner },
    });
    expect(pay.statusCode).toBe(400);
    expect(pay.json()).toEqual({ success: false, error: "Please upload a logo" });
  });
});

describe("expired drafts in the list", () => {
  it("hides expired drafts whose wallets are empty, keeps funded ones, and pages exactly, in one chain read", async () => {
    const key = await app.auth.mintKey("user");
    const made = [];
    for (let n = 1; n <= 14; n++) made.push(await createDraft(key, `Exp ${n}`));
    const hidden = made.slice(0, 4);
    const funded = made.slice(4, 6);
    const paid = made[6] as (typeof made)[number];
    const db = app.database.db;
    await db
      .update(draftsTable)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(
        inArray(
          draftsTable.id,
          [...hidden, ...funded, paid].map((d) => d.id),
        ),
      );
    // A draft whose fee is paid never expires.
    await db.update(draftsTable).set({ status: "paid" }).where(eq(draftsTable.id, paid.id));
    for (const [i, draft] of funded.entries()) {
      const address = (
        i === 0 ? draft.input.deployerWallet.address : draft.input.walletConfig.wallets[1]?.address
      ) as Address;
      await testChain.rpc("anvil_setBalance", [address, `0x${parseEther("0.01").toString(16)}`]);
    }

    const request = vi.spyOn(testChain.chain.client, "request");
    const pages = await allPages(key);
    const methods = (request.mock.calls as unknown as Array<[{ method: string }]>).map(
      ([args]) => args.method,
    );
    request.mockRestore();
    // One multicall per block whatever the number of expired drafts: the two pages asked read
    // once, or twice when a block came between them.
    const multicalls = methods.filter((method) => method === "eth_call").length;
    expect(multicalls).toBeGreaterThanOrEqual(1);
    expect(multicalls).toBeLessThanOrEqual(2);
    expect(pages.map((p) => p.drafts.length)).toEqual([9, 1]);
    expect(pages.every((p) => p.total === 10)).toBe(true);
    const ids = pages.flatMap((p) => p.drafts.map((d) => d._id));
    expect(new Set(ids).size).toBe(10);
    for (const { id } of hidden) expect(ids).not.toContain(id);
    for (const { id } of [...funded, paid]) expect(ids).toContain(id);
  });
});
