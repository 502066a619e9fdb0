import { ADMIN_SORT_FIELDS, type AdminUserRow } from "@bundler/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../db/schema.ts";
import { launchHistory, userIdOf } from "../../test/admin-data.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { apiCaller } from "../../test/drafts-api.ts";

let app: TestApp;
let superadmin: string;
let admin: string;
let user: string;
const A = "/api/admin/dashboard";
const SOME_ID = "3f0b7c1e-8a51-4c9d-9a57-6f1c2b3d4e5f";

beforeAll(async () => {
  app = await createTestApp();
  superadmin = await app.auth.mintKey("superadmin");
  admin = await app.auth.mintKey("admin");
  user = await app.auth.mintKey("user");
});
afterAll(async () => {
  await app?.close();
});

const call = apiCaller(
  () => app,
  () => superadmin,
);
const idOf = (key: string) => userIdOf(app, key);

const ROUTES: Array<[method: "GET" | "PUT" | "POST", path: string, body?: object]> = [
  ["GET", `${A}/stats`],
  ["GET", `${A}/users`],
  ["GET", `${A}/users/${SOME_ID}`],
  ["PUT", `${A}/users/${SOME_ID}/role`, { role: "admin" }],
  ["PUT", `${A}/users/${SOME_ID}/active`, { isActive: false }],
  ["GET", `${A}/drafts/${SOME_ID}/payment-key?reason=refund`],
  ["GET", `${A}/claims`],
  ["POST", `${A}/claims/${SOME_ID}/complete`],
  ["POST", `${A}/claims/${SOME_ID}/reject`, {}],
  ["GET", `${A}/audit`],
];

describe("the admin API's doors", () => {
  it.each(ROUTES)(
    "%s %s answers 401 without a key and 403 with a user's key",
    async (method, url, body) => {
      const inject = (headers: Record<string, string>) =>
        app.server.inject({ method, url, headers, ...(body ? { payload: body } : {}) });
      const without = await inject({});
      expect(without.statusCode).toBe(401);
      expect(without.json()).toEqual({ success: false, error: "No authentication key provided" });
      const asUser = await inject({ "x-auth-key": user });
      expect(asUser.statusCode).toBe(403);
      expect(asUser.json()).toEqual({ success: false, error: "You do not have access to this" });
    },
  );

  it("keeps role changes and the audit log to superadmins: an admin gets 403", async () => {
    const target = await idOf(await app.auth.mintKey("user"));
    const role = await call("PUT", `${A}/users/${target}/role`, { role: "admin" }, admin);
    expect(role.status).toBe(403);
    const [row] = await app.database.db.select().from(users).where(eq(users.id, target));
    expect(row?.role).toBe("user");
    expect((await call("GET", `${A}/audit`, undefined, admin)).status).toBe(403);
  });
});

describe("roles and activation", () => {
  it("a superadmin changes a role, and it holds at once: the new admin reads the dashboard", async () => {
    const key = await app.auth.mintKey("user");
    expect((await call("GET", `${A}/stats`, undefined, key)).status).toBe(403);
    const changed = await call("PUT", `${A}/users/${await idOf(key)}/role`, { role: "admin" });
    expect(changed.body).toEqual({
      success: true,
      user: { _id: await idOf(key), role: "admin" },
      message: "Role updated to admin",
    });
    expect((await call("GET", `${A}/stats`, undefined, key)).status).toBe(200);
  });

  it("refuses to demote the last superadmin, and allows it once there is another", async () => {
    const me = await idOf(superadmin);
    const refused = await call("PUT", `${A}/users/${me}/role`, { role: "admin" });
    expect(refused).toEqual({
      status: 409,
      body: {
        success: false,
        error: "The last superadmin cannot be demoted: make another superadmin first",
      },
    });
    const other = await app.auth.mintKey("superadmin");
    expect((await call("PUT", `${A}/users/${me}/role`, { role: "admin" }, other)).status).toBe(200);
    expect((await call("PUT", `${A}/users/${me}/role`, { role: "superadmin" }, other)).status).toBe(
      200,
    );
    await call("PUT", `${A}/users/${await idOf(other)}/role`, { role: "user" });
  });

  it("refuses a deactivated key everywhere at once, and lets it back in when reactivated", async () => {
    const key = await app.auth.mintKey("user");
    const id = await idOf(key);
    expect((await call("GET", "/api/draft/list", undefined, key)).status).toBe(200);
    const off = await call("PUT", `${A}/users/${id}/active`, { isActive: false }, admin);
    expect(off.body).toEqual({
      success: true,
      user: { _id: id, isActive: false },
      message: "Key deactivated",
    });
    expect(await call("GET", "/api/draft/list", undefined, key)).toEqual({
      status: 401,
      body: { success: false, error: "Invalid access key" },
    });
    await call("PUT", `${A}/users/${id}/active`, { isActive: true }, admin);
    expect((await call("GET", "/api/draft/list", undefined, key)).status).toBe(200);
  });

  it("keeps admins' keys to superadmins and one's own key on", async () => {
    const other = await idOf(await app.auth.mintKey("admin"));
    expect(
      (await call("PUT", `${A}/users/${other}/active`, { isActive: false }, admin)).status,
    ).toBe(403);
    const self = await call("PUT", `${A}/users/${await idOf(superadmin)}/active`, {
      isActive: false,
    });
    expect(self).toEqual({
      status: 409,
      body: { success: false, error: "You cannot deactivate your own key" },
    });
  });

  it("answers 404 for an unknown or malformed user id, and 400 for a bad role", async () => {
    expect((await call("GET", `${A}/users/${SOME_ID}`)).body).toEqual({
      success: false,
      error: "User not found",
    });
    expect((await call("GET", `${A}/users/nope`)).status).toBe(404);
    expect((await call("PUT", `${A}/users/${SOME_ID}/role`, { role: "user" })).status).toBe(404);
    const bad = await call("PUT", `${A}/users/${await idOf(user)}/role`, { role: "root" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("Role must be user, admin or superadmin");
  });
});

describe("the users list", () => {
  let everyone: AdminUserRow[];

  beforeAll(async () => {
    // 24 more users, some with launches and fees, so the list spans pages.
    for (let i = 0; i < 24; i++) {
      const id = await idOf(await app.auth.mintKey("user"));
      if (i % 3 === 0) await launchHistory(app, id, (i % 4) + 1, `0.${i + 1}`);
    }
    const all = await call("GET", `${A}/users?limit=100`);
    everyone = all.body.users as AdminUserRow[];
  });

  const pages = async (query: string) => {
    const first = await call("GET", `${A}/users?${query}`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const { pages: count, total } = first.body.pagination as { pages: number; total: number };
    const rows = [...(first.body.users as AdminUserRow[])];
    for (let page = 2; page <= count; page++)
      rows.push(
        ...((await call("GET", `${A}/users?${query}&page=${page}`)).body.users as AdminUserRow[]),
      );
    expect(rows).toHaveLength(total);
    return rows;
  };

  it("pages 20 users at a time, by launch count descending by default", async () => {
    const first = await call("GET", `${A}/users`);
    expect(first.body.pagination).toEqual({
      page: 1,
      limit: 20,
      total: everyone.length,
      pages: Math.ceil(everyone.length / 20),
    });
    const rows = await pages("");
    const counts = rows.map((row) => row.launchCount);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(new Set(rows.map((row) => row._id)).size).toBe(everyone.length);
  });

  it.each(ADMIN_SORT_FIELDS)(
    "sorts by %s on the server, across every page, both ways",
    async (field) => {
      const value = (row: AdminUserRow) => {
        const raw = row[field];
        if (field === "role") return ["user", "admin", "superadmin"].indexOf(raw as string);
        if (field === "totalSpent") return Number(raw);
        if (field === "isActive") return raw ? 1 : 0;
        return raw as string | number;
      };
      for (const direction of ["asc", "desc"] as const) {
        const rows = await pages(`sortField=${field}&sortDirection=${direction}&limit=7`);
        const values = rows.map(value);
        const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        expect(values).toEqual(direction === "asc" ? sorted : sorted.reverse());
      }
    },
  );

  it("shows a key by its first 6 characters and what each user spent", async () => {
    for (const row of everyone) expect(row.key).toHaveLength(6);
    const spender = everyone.find((row) => row.launchCount === 2);
    expect(spender?.totalSpent).toMatch(/^0\.\d+$/);
    expect(JSON.stringify(everyone)).not.toContain("keyHash");
  });

  it("refuses an unknown sort field with its rule", async () => {
    expect(await call("GET", `${A}/users?sortField=keyHash`)).toEqual({
      status: 400,
      body: {
        success: false,
        error: "Sort field must be one of key, role, isActive, launchCount, totalSpent",
        field: "sortField",
      },
    });
  });
});

describe("stats and user detail", () => {
  it("counts users, drafts, launches and revenue, with a 30-day series ending today", async () => {
    const stats = (await call("GET", `${A}/stats`)).body.stats as Record<string, never>;
    const [all] = await app.database.db.$count(users).then((n) => [n]);
    expect(stats.users).toMatchObject({ total: all });
    const daily = stats.daily as unknown as Array<{
      date: string;
      launches: number;
      revenue: string;
    }>;
    expect(daily).toHaveLength(30);
    expect(daily.at(-1)?.date).toBe(new Date().toISOString().slice(0, 10));
    const launched = daily.reduce((sum, day) => sum + day.launches, 0);
    expect(stats.launches).toEqual({ total: launched });
    expect(stats.drafts).toMatchObject({ paid: launched, executed: launched });
    expect(Number((stats.revenue as unknown as { total: string }).total)).toBeCloseTo(
      daily.reduce((sum, day) => sum + Number(day.revenue), 0),
      12,
    );
    expect(stats.revenue).toMatchObject({ currency: "BNB", accessKeys: "0" });
  });

  it("shows a user's launches, drafts, referral standing and claims", async () => {
    const id = await idOf(await app.auth.mintKey("user"));
    await launchHistory(app, id, 2, "0.25");
    const detail = await call("GET", `${A}/users/${id}`);
    expect(detail.status).toBe(200);
    const shown = detail.body.user as Record<string, unknown>;
    expect(shown).toMatchObject({
      _id: id,
      launchCount: 2,
      totalSpent: "0.5",
      stats: { launchCount: 2, totalSpent: "0.5" },
      referral: { code: null, uses: 0, earned: "0" },
      referredBy: null,
      claims: [],
    });
    expect(shown.launches).toHaveLength(2);
    expect((shown.launches as object[])[0]).toMatchObject({ walletCount: 2, image: "" });
    expect(shown.drafts).toHaveLength(2);
    expect((shown.drafts as object[])[0]).toMatchObject({
      status: "executed",
      paymentAmount: "0.25",
      deleted: false,
    });
  });
});
