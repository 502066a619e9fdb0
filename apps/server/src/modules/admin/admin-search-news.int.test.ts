import type { AdminNewsItem, AdminUserRow, AuditEntry, NewsItem } from "@bundler/shared";
import { eq } from "drizzle-orm";
import { generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launches, payments, users } from "../../db/schema.ts";
import { launchHistory, userIdOf } from "../../test/admin-data.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { apiCaller } from "../../test/drafts-api.ts";

let app: TestApp;
let superadmin: string;
let admin: string;
const A = "/api/admin/dashboard";

beforeAll(async () => {
  app = await createTestApp();
  superadmin = await app.auth.mintKey("superadmin");
  admin = await app.auth.mintKey("admin");
});
afterAll(async () => {
  await app?.close();
});

const call = apiCaller(
  () => app,
  () => superadmin,
);
const idOf = (key: string) => userIdOf(app, key);
/** The ids of the users a search finds, over every page (a page of 100). */
const found = async (search: string): Promise<string[]> => {
  const answer = await call("GET", `${A}/users?limit=100&search=${encodeURIComponent(search)}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body.users as AdminUserRow[]).map((u) => u._id);
};

describe("searching users on the server", () => {
  // More users than one page of 20: the one searched for is not on the first page.
  let target: { key: string; id: string };
  beforeAll(async () => {
    for (let i = 0; i < 25; i++)
      await launchHistory(app, await idOf(await app.auth.mintKey("user")), 1);
    const key = await app.auth.mintKey("user");
    target = { key, id: await idOf(key) };
    await app.database.db
      .update(users)
      .set({ deviceId: "device-Needle-42" })
      .where(eq(users.id, target.id));
    await launchHistory(app, target.id, 1);
  });

  it("finds a user by a whole key pasted in, matched by its digest", async () => {
    expect(await found(target.key)).toEqual([target.id]);
  });

  it("finds a user by their id", async () => {
    expect(await found(target.id.toUpperCase())).toEqual([target.id]);
  });

  it("finds a user by a part of their device id, whatever its case", async () => {
    expect(await found("needle-4")).toEqual([target.id]);
  });

  it("finds a user by a wallet whose key the server holds for them", async () => {
    const [wallet] = await app.vault.store(
      [{ privateKey: generatePrivateKey(), purpose: "bundle" }],
      { ownerId: target.id },
    );
    expect(await found(wallet?.address.toLowerCase() as string)).toEqual([target.id]);
  });

  it("finds a user by a payment address of theirs and by a token they launched", async () => {
    const [payment] = await app.database.db
      .select({ address: payments.address })
      .from(payments)
      .where(eq(payments.ownerId, target.id));
    const [launch] = await app.database.db
      .select({ token: launches.tokenAddress })
      .from(launches)
      .where(eq(launches.ownerId, target.id));
    expect(await found(payment?.address as string)).toEqual([target.id]);
    expect(await found(launch?.token as string)).toEqual([target.id]);
  });

  it("finds a user by their referral code, whatever its case", async () => {
    const created = await call(
      "POST",
      "/api/auth/referral/create",
      { code: "NeedleCode" },
      target.key,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(await found("needlecode")).toEqual([target.id]);
  });

  it("counts the users found across every page, not the page shown", async () => {
    const answer = await call("GET", `${A}/users?limit=20&search=admin`);
    const rows = answer.body.users as AdminUserRow[];
    expect(rows.map((r) => r.role)).toEqual(["admin"]);
    expect(answer.body.pagination).toMatchObject({ page: 1, total: 1, pages: 1 });
  });

  it("finds nobody for a search that names no one", async () => {
    expect(await found("0x000000000000000000000000000000000000dead")).toEqual([]);
  });
});

describe("news from the admin dashboard", () => {
  const item = { content: "Maintenance at 02:00 UTC.", label: "Ops", labelColor: "#F5A524" };
  const banner = async () => (await call("GET", "/api/news")).body.news as NewsItem[];
  const audit = async () => (await call("GET", `${A}/audit`)).body.entries as AuditEntry[];

  it("publishes an item to the banner and writes who did it in the audit log", async () => {
    const published = await call("POST", `${A}/news`, item, admin);
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const news = published.body.item as AdminNewsItem;
    expect(news).toMatchObject({ ...item, labelColor: "#f5a524", active: true });
    expect((await banner()).map((n) => n.id)).toContain(news.id);
    const [entry] = await audit();
    expect(entry).toMatchObject({
      action: "news_publish",
      target: { type: "news", id: news.id },
      actor: { userId: await idOf(admin), role: "admin" },
    });
  });

  it("edits an item's text, and the banner shows the new text", async () => {
    const news = (await call("POST", `${A}/news`, item, admin)).body.item as AdminNewsItem;
    const edited = await call(
      "PUT",
      `${A}/news/${news.id}`,
      { ...item, content: "Moved to 03:00." },
      admin,
    );
    expect(edited.status).toBe(200);
    expect((await banner()).find((n) => n.id === news.id)?.content).toBe("Moved to 03:00.");
    const [entry] = await audit();
    expect(entry).toMatchObject({ action: "news_edit", target: { type: "news", id: news.id } });
    expect(entry?.details).toMatchObject({
      from: { content: item.content },
      to: { content: "Moved to 03:00." },
    });
  });

  it("hides an item from the banner, keeps it in the admin list, and shows it again", async () => {
    const news = (await call("POST", `${A}/news`, item, admin)).body.item as AdminNewsItem;
    const hidden = await call("PUT", `${A}/news/${news.id}/visibility`, { active: false }, admin);
    expect(hidden.body.message).toBe("News hidden from the banner");
    expect((await banner()).map((n) => n.id)).not.toContain(news.id);
    const listed = (await call("GET", `${A}/news`, undefined, admin)).body.news as AdminNewsItem[];
    expect(listed.find((n) => n.id === news.id)?.active).toBe(false);
    expect((await audit())[0]?.action).toBe("news_hide");

    await call("PUT", `${A}/news/${news.id}/visibility`, { active: true }, admin);
    expect((await banner()).map((n) => n.id)).toContain(news.id);
    expect((await audit())[0]?.action).toBe("news_show");
  });

  it("refuses an item without text or with a label color that is not a hex color", async () => {
    const empty = await call("POST", `${A}/news`, { ...item, content: " " }, admin);
    expect(empty.status).toBe(400);
    expect(empty.body.error).toContain("Please enter the news text");
    const color = await call("POST", `${A}/news`, { ...item, labelColor: "red;x:y" }, admin);
    expect(color.status).toBe(400);
    expect(color.body.error).toContain("The label color must be a hex color like #f0b90b");
  });

  it("answers 404 for an item that does not exist, and changes nothing", async () => {
    const before = (await audit()).length;
    const answer = await call("PUT", `${A}/news/nope/visibility`, { active: false }, admin);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ success: false, error: "News item not found" });
    expect((await audit()).length).toBe(before);
  });

  it("keeps publishing to admins: a user's key gets 403", async () => {
    const user = await app.auth.mintKey("user");
    const answer = await call("POST", `${A}/news`, item, user);
    expect(answer.status).toBe(403);
  });
});
