import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drafts as draftsTable } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { apiCaller, draftInput, PNG_LOGO } from "../../test/drafts-api.ts";

let app: TestApp;
let key: string;

beforeAll(async () => {
  app = await createTestApp({ bodyLimitBytes: 2 * 1024 * 1024 });
  key = await app.auth.mintKey("user");
});
afterAll(async () => {
  await app?.close();
});

const call = apiCaller(
  () => app,
  () => key,
);

/** A GET without any access key, as an `<img>` makes it. */
const fetchLogo = (hash: string, headers: Record<string, string> = {}) =>
  app.server.inject({ method: "GET", url: `/api/draft/logo/${hash}`, headers });

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString("base64")}`;

const createDraft = async (image: string) => {
  const input = draftInput(1);
  input.tokenInfo = { ...input.tokenInfo, image };
  const answer = await call("POST", "/api/draft/create", input);
  expect(answer.status).toBe(200);
  return { id: answer.body.draftId as string, input };
};

describe("GET /api/draft/logo/:hash", () => {
  it("serves the logo's bytes without a key, cacheable for a year, with an ETag", async () => {
    await createDraft(PNG_LOGO);
    const hash = sha256(PNG_LOGO);
    const response = await fetchLogo(hash);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("image/png");
    const bytes = Buffer.from(PNG_LOGO.slice(PNG_LOGO.indexOf(",") + 1), "base64");
    expect(response.rawPayload.equals(bytes)).toBe(true);
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(response.headers.etag).toBe(`"${hash}"`);
    expect(response.headers["x-content-type-options"]).toBe("nosniff");

    const again = await fetchLogo(hash, { "if-none-match": `"${hash}"` });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it("answers 404 for an unknown hash, a malformed one, and a deleted draft's logo", async () => {
    for (const hash of ["0".repeat(64), "not-a-hash", "A".repeat(64)]) {
      const response = await fetchLogo(hash);
      expect(response.statusCode, hash).toBe(404);
      expect(response.json()).toEqual({ success: false, error: "Logo not found" });
    }
    const gif = dataUrl("image/gif", Buffer.from("GIF89a-only-this-draft"));
    const { id } = await createDraft(gif);
    expect((await fetchLogo(sha256(gif))).headers["content-type"]).toBe("image/gif");
    expect((await call("DELETE", `/api/draft/${id}`)).status).toBe(200);
    expect((await fetchLogo(sha256(gif))).statusCode).toBe(404);
  });

  it("serves only PNG, JPEG, GIF and WebP data URLs", async () => {
    const svg = dataUrl("image/svg+xml", Buffer.from("<svg onload='alert(1)'/>"));
    const bare = PNG_LOGO.slice(PNG_LOGO.indexOf(",") + 1);
    const webp = dataUrl("image/webp", Buffer.from("RIFF....WEBPVP8 "));
    for (const image of [svg, bare, webp]) await createDraft(image);
    expect((await fetchLogo(sha256(svg))).statusCode).toBe(404);
    expect((await fetchLogo(sha256(bare))).statusCode).toBe(404);
    expect((await fetchLogo(sha256(webp))).headers["content-type"]).toBe("image/webp");
  });

  it("follows the logo when a draft is edited", async () => {
    const before = dataUrl("image/png", Buffer.from("png-before-edit"));
    const after = dataUrl("image/jpeg", Buffer.from([0xff, 0xd8, 0xff, 0xe0]));
    const { id, input } = await createDraft(before);
    const edited = await call("PUT", `/api/draft/${id}`, {
      ...input,
      tokenInfo: { ...input.tokenInfo, image: after },
    });
    expect(edited.status).toBe(200);
    expect((await fetchLogo(sha256(after))).headers["content-type"]).toBe("image/jpeg");
    expect((await fetchLogo(sha256(before))).statusCode).toBe(404);
  });

  it("is backfilled for drafts saved before the column existed, by the migration's rule", async () => {
    const svg = dataUrl("image/svg+xml", Buffer.from("<svg/>"));
    const ids = [(await createDraft(PNG_LOGO)).id, (await createDraft(svg)).id];
    const db = app.database.db;
    await db.update(draftsTable).set({ logoHash: null }).where(inArray(draftsTable.id, ids));
    const migration = readFileSync(
      path.resolve(import.meta.dirname, "../../../drizzle/0005_drafts_logo_hash.sql"),
      "utf8",
    );
    await db.execute(sql.raw(migration.split("--> statement-breakpoint").at(-1) as string));
    const rows = await db
      .select({ id: draftsTable.id, logoHash: draftsTable.logoHash })
      .from(draftsTable)
      .where(inArray(draftsTable.id, ids));
    expect(rows.find((r) => r.id === ids[0])?.logoHash).toBe(sha256(PNG_LOGO));
    expect(rows.find((r) => r.id === ids[1])?.logoHash).toBeNull();
  });
});
