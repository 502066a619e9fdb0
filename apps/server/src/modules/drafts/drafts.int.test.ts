import { type Draft, type DraftSummary, draftInputSchema, QUOTAS } from "@bundler/shared";
import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { rowCounts } from "../../test/row-counts.ts";
import { draftInput, useDraftsTestbed, wallet } from "./drafts.test-support.ts";

const ctx = useDraftsTestbed();
const { call } = ctx;

describe("drafts", () => {
  it("creates, reads, lists, updates and deletes a draft, returning keys only to its owner", async () => {
    const input = draftInput();
    const created = await call(ctx.keyA, "POST", "/api/draft/create", input);
    expect(created.status).toBe(200);
    const draft = created.body.draft as Draft;
    expect(created.body.draftId).toBe(draft._id);
    expect(draft.status).toBe("draft");
    expect(draft.deployerWallet).toEqual(input.deployerWallet);
    expect(draft.walletConfig.wallets.map((w) => w.privateKey)).toEqual(
      input.walletConfig.wallets.map((w) => w.privateKey),
    );
    expect(draft.walletConfig.tipPayer).toEqual(input.walletConfig.tipPayer);
    expect(draft.tokenInfo.tradingFee).toBe("0.25");
    expect(new Date(draft.expiresAt ?? 0).getTime()).toBeGreaterThan(Date.now() + 29 * 86400_000);

    const listed = await call(ctx.keyA, "GET", "/api/draft/list");
    expect((listed.body.drafts as DraftSummary[]).map((d) => d._id)).toContain(draft._id);
    expect((await call(ctx.keyB, "GET", "/api/draft/list")).body).toMatchObject({
      drafts: [],
      total: 0,
    });

    const changed = { ...input, tokenInfo: { ...input.tokenInfo, name: "Moon 2" } };
    const updated = await call(ctx.keyA, "PUT", `/api/draft/${draft._id}`, changed);
    expect(updated.status).toBe(200);
    expect((updated.body.draft as Draft).tokenInfo.name).toBe("Moon 2");

    expect((await call(ctx.keyA, "DELETE", `/api/draft/${draft._id}`)).status).toBe(200);
    expect((await call(ctx.keyA, "GET", `/api/draft/${draft._id}`)).status).toBe(404);
  });

  it("answers 404 to another user on every draft route, and to a malformed id", async () => {
    const { body } = await call(ctx.keyA, "POST", "/api/draft/create", draftInput());
    const id = body.draftId as string;
    const routes: Array<["GET" | "POST" | "PUT" | "DELETE", string, unknown?]> = [
      ["GET", `/api/draft/${id}`],
      ["PUT", `/api/draft/${id}`, draftInput()],
      ["DELETE", `/api/draft/${id}`],
      ["POST", `/api/draft/${id}/payment`],
      ["GET", `/api/draft/${id}/payment/status`],
      ["POST", `/api/draft/${id}/payment/cancel`],
      ["POST", `/api/draft/${id}/execute`],
    ];
    for (const [method, url, payload] of routes) {
      const answer = await call(ctx.keyB, method, url, payload);
      expect(answer.status, `${method} ${url}`).toBe(404);
      expect(answer.body).toEqual({ success: false, error: "Draft not found" });
      const malformed = await call(ctx.keyA, method, url.replace(id, "not-a-uuid"), payload);
      expect(malformed.status, `${method} ${url} malformed`).toBe(404);
    }
    // Still there for its owner.
    expect((await call(ctx.keyA, "GET", `/api/draft/${id}`)).status).toBe(200);
  });

  it("never stores a private key in plaintext", async () => {
    const input = draftInput();
    await call(ctx.keyA, "POST", "/api/draft/create", input);
    const dump = JSON.stringify(
      (await ctx.app.database.db.execute(sql`select * from wallet_keys`)).rows,
    ).concat(JSON.stringify((await ctx.app.database.db.execute(sql`select * from drafts`)).rows));
    const keys = [
      input.deployerWallet.privateKey,
      input.walletConfig.tipPayer.privateKey,
      ...input.walletConfig.wallets.map((w) => w.privateKey),
    ];
    for (const key of keys) {
      expect(dump.toLowerCase()).not.toContain(key.slice(2).toLowerCase());
      expect(dump).not.toContain(Buffer.from(key.slice(2), "hex").toString("base64"));
    }
    const rows = (await ctx.app.database.db.execute(sql`select key_id, iv from wallet_keys`)).rows;
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(new Set(rows.map((r) => (r as { iv: string }).iv)).size).toBe(rows.length);
  });

  it("rejects a wallet whose address does not match its key", async () => {
    const input = draftInput();
    input.deployerWallet.address = wallet().address;
    const answer = await call(ctx.keyA, "POST", "/api/draft/create", input);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/does not match/);
  });

  it("keeps each wallet's quoted token amount, so an edited draft still has it", async () => {
    const base = draftInput();
    const [first, second] = base.walletConfig.wallets;
    const input = {
      ...base,
      walletConfig: {
        ...base.walletConfig,
        wallets: [{ ...first, tokenAmount: "12345000000000" }, second],
      },
    };
    const created = await call(ctx.keyA, "POST", "/api/draft/create", input);
    const draft = created.body.draft as Draft;
    expect(draft.walletConfig.wallets.map((w) => w.tokenAmount)).toEqual([
      "12345000000000",
      undefined,
    ]);
    const updated = await call(ctx.keyA, "PUT", `/api/draft/${draft._id}`, {
      ...input,
      tokenInfo: { ...input.tokenInfo, name: "Moon 3" },
    });
    expect((updated.body.draft as Draft).walletConfig.wallets[0]?.tokenAmount).toBe(
      "12345000000000",
    );
  });

  it("saves a draft without a tip, but refuses one that is negative or not a number", async () => {
    const input = draftInput();
    const empty = await call(ctx.keyA, "POST", "/api/draft/create", {
      ...input,
      walletConfig: { ...input.walletConfig, tip: "" },
    });
    expect(empty.status).toBe(200);
    expect((empty.body.draft as Draft).walletConfig.tip).toBe("");
    for (const [tip, message] of [
      ["-0.001", "Tip cannot be negative"],
      ["lots", "Tip must be a number"],
    ]) {
      const refused = await call(ctx.keyA, "POST", "/api/draft/create", {
        ...input,
        walletConfig: { ...input.walletConfig, tip },
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ success: false, error: message, field: "walletConfig.tip" });
    }
  });

  const oversized = (input: ReturnType<typeof draftInput>) =>
    [
      [
        { ...input, tokenInfo: { ...input.tokenInfo, preSale: "9".repeat(60) } },
        {
          error: "Deployer buy must be a BNB amount below 1,000,000,000",
          field: "tokenInfo.preSale",
        },
      ],
      [
        {
          ...input,
          walletConfig: {
            ...input.walletConfig,
            wallets: [{ ...input.walletConfig.wallets[0], buyValue: "1000000000" }],
          },
        },
        {
          error: "Wallet 1 buy must be a BNB amount below 1,000,000,000",
          field: "walletConfig.wallets.0.buyValue",
          row: 1,
        },
      ],
      [
        { ...input, tokenInfo: { ...input.tokenInfo, tradingFee: "1".repeat(100_000) } },
        {
          error: "Trading fee must be a percent from 0 to 100, like 0.25",
          field: "tokenInfo.tradingFee",
        },
      ],
      [
        {
          ...input,
          walletConfig: {
            ...input.walletConfig,
            wallets: [{ ...input.walletConfig.wallets[0], tokenAmount: "1".repeat(1000) }],
          },
        },
        {
          error: "Wallet 1 token amount must be a whole number of token units, at most the supply",
          field: "walletConfig.wallets.0.tokenAmount",
          row: 1,
        },
      ],
      [
        {
          ...input,
          walletConfig: {
            ...input.walletConfig,
            delaySnipeAddress: input.walletConfig.wallets[0]?.address,
            delayEnabled: true,
            minDelay: 2 ** 31,
            maxDelay: 2 ** 31,
          },
        },
        {
          error: "Delay must be at most 3600 seconds (1 hour)",
          field: "walletConfig.minDelay",
        },
      ],
    ] as const;

  it("refuses a huge amount, string or delay on create with 400 and writes no draft and no key", async () => {
    for (const [body, problem] of oversized(draftInput())) {
      const before = await rowCounts(ctx.app.database.db);
      const answer = await call(ctx.keyA, "POST", "/api/draft/create", body);
      expect(answer.status, problem.error).toBe(400);
      expect(answer.body).toEqual({ success: false, ...problem });
      expect(await rowCounts(ctx.app.database.db)).toEqual(before);
    }
  });

  it("refuses a huge amount, string or delay on update with 400 and changes nothing", async () => {
    const input = draftInput();
    const { body } = await call(ctx.keyA, "POST", "/api/draft/create", input);
    const id = body.draftId as string;
    const saved = (await call(ctx.keyA, "GET", `/api/draft/${id}`)).body.draft;
    for (const [changed, problem] of oversized(draftInput())) {
      const before = await rowCounts(ctx.app.database.db);
      const answer = await call(ctx.keyA, "PUT", `/api/draft/${id}`, changed);
      expect(answer.status, problem.error).toBe(400);
      expect(answer.body).toEqual({ success: false, ...problem });
      expect(await rowCounts(ctx.app.database.db)).toEqual(before);
    }
    expect((await call(ctx.keyA, "GET", `/api/draft/${id}`)).body.draft).toEqual(saved);
  });

  it("refuses to execute an unpaid draft (409) and to pay without a chain (503)", async () => {
    const { body } = await call(ctx.keyA, "POST", "/api/draft/create", draftInput());
    const execute = await call(ctx.keyA, "POST", `/api/draft/${body.draftId}/execute`);
    expect(execute.status).toBe(409);
    expect(execute.body.error).toMatch(/not paid/);
    const pay = await call(ctx.keyA, "POST", `/api/draft/${body.draftId}/payment`);
    expect(pay.status).toBe(503);
    expect(pay.body.error).toBe("chain unavailable");
  });
});

describe("the open drafts quota", () => {
  it("refuses a draft past the 50 open ones with 409, saying what to do, and writes nothing", async () => {
    const owner = await ctx.app.auth.mintKey("user");
    const ids: string[] = [];
    for (let i = 0; i < QUOTAS.openDrafts; i++) {
      const created = await call(owner, "POST", "/api/draft/create", draftInput());
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      ids.push(created.body.draftId as string);
    }
    const before = await rowCounts(ctx.app.database.db);
    const refused = await call(owner, "POST", "/api/draft/create", draftInput());
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      success: false,
      error:
        "You already have 50 open drafts, the most one key may keep: delete a draft you no longer need, or launch one, then try again",
    });
    expect(await rowCounts(ctx.app.database.db)).toEqual(before);

    expect((await call(owner, "DELETE", `/api/draft/${ids[0]}`)).status).toBe(200);
    expect((await call(owner, "POST", "/api/draft/create", draftInput())).status).toBe(200);
  });

  it("gives the last free place to one of several requests arriving at once", async () => {
    const owner = await ctx.app.auth.mintKey("user");
    for (let i = 0; i < QUOTAS.openDrafts - 1; i++)
      await call(owner, "POST", "/api/draft/create", draftInput());
    // Straight to the service: little work before each transaction, so they overlap.
    const userId = (await ctx.app.auth.authenticate(owner))?.id ?? "";
    const input = draftInputSchema.parse({ tokenInfo: draftInput().tokenInfo });
    // Open the connections first (on Postgres), so that no transaction waits for one.
    await Promise.all(
      Array.from({ length: 8 }, () => ctx.app.database.db.execute(sql`select pg_sleep(0.05)`)),
    );
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        ctx.app.drafts.create(userId, input).then(
          () => ({ status: 200 }),
          (error: { statusCode?: number }) => ({ status: error.statusCode }),
        ),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
  });

  it("does not count another user's drafts", async () => {
    expect(QUOTAS.openDrafts).toBe(50);
    const fresh = await ctx.app.auth.mintKey("user");
    expect((await call(fresh, "POST", "/api/draft/create", draftInput())).status).toBe(200);
  });
});

describe("a draft and its keys are written together", () => {
  /** The vault writes the keys, then the connection fails before the commit. */
  const failAfterStoring = () => {
    const store = ctx.app.vault.store.bind(ctx.app.vault);
    return vi.spyOn(ctx.app.vault, "store").mockImplementationOnce(async (...args) => {
      await store(...args);
      throw new Error("connection lost");
    });
  };

  it("leaves no draft and no key behind when storing the keys fails on create", async () => {
    const before = await rowCounts(ctx.app.database.db);
    const listed = ((await call(ctx.keyA, "GET", "/api/draft/list")).body.drafts as Draft[]).length;
    const spy = failAfterStoring();
    const answer = await call(ctx.keyA, "POST", "/api/draft/create", draftInput());
    spy.mockRestore();
    expect(answer.status).toBe(500);
    expect(await rowCounts(ctx.app.database.db)).toEqual(before);
    expect(((await call(ctx.keyA, "GET", "/api/draft/list")).body.drafts as Draft[]).length).toBe(
      listed,
    );
  });

  it("leaves the draft as it was and stores no new key when the update fails", async () => {
    const { body } = await call(ctx.keyA, "POST", "/api/draft/create", draftInput());
    const id = body.draftId as string;
    const saved = (await call(ctx.keyA, "GET", `/api/draft/${id}`)).body.draft;
    const before = await rowCounts(ctx.app.database.db);
    const spy = vi
      .spyOn(ctx.app.drafts.repository, "updateIf")
      .mockRejectedValueOnce(new Error("connection lost"));
    const answer = await call(ctx.keyA, "PUT", `/api/draft/${id}`, draftInput());
    spy.mockRestore();
    expect(answer.status).toBe(500);
    expect(await rowCounts(ctx.app.database.db)).toEqual(before);
    expect((await call(ctx.keyA, "GET", `/api/draft/${id}`)).body.draft).toEqual(saved);
  });
});
