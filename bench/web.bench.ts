// The web app's initial JavaScript (the entry script and its modulepreload links in the built
// index.html, each gzipped at level 9) and the create page's time to interactive in headless
// Chromium against the real server: from reload to the "Token name" input being visible and
// enabled, median of 5 reloads after logging in with a free key. Prints figures; asserts nothing.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { type BrowserContext, chromium } from "playwright-core";
import { CHROMIUM_ARGS } from "../e2e/support/browser.ts";
import { median } from "./lib/localChain.ts";
import { onInterrupt } from "./lib/on-interrupt.ts";
import { makeDataDir, removeDir, root, startServer, stopAllServers } from "./lib/server.ts";

const RELOADS = 5;
const dist = path.join(root, "apps/web/dist");

const say = (line = "") => process.stdout.write(`${line}\n`);

let context: BrowserContext | undefined;
const dirs: string[] = [];
const cleanup = async () => {
  await context?.close().catch(() => undefined);
  context = undefined;
  await stopAllServers();
  for (const dir of dirs.splice(0)) removeDir(dir);
};

onInterrupt(cleanup);

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const initialJavaScript = () => {
  const html = readFileSync(path.join(dist, "index.html"), "utf8");
  const entries = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map(
    (m) => m[1] ?? "",
  );
  const preloads = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map(
    (m) => m[1] ?? "",
  );
  const files = [...new Set([...entries, ...preloads])].filter(Boolean);
  const rows = files.map((href) => {
    const source = readFileSync(path.join(dist, href.replace(/^\//, "")));
    return { href, raw: source.length, gzip: gzipSync(source, { level: 9 }).length };
  });
  return rows;
};

const main = async () => {
  const buildStarted = performance.now();
  execFileSync(process.execPath, [path.join(root, "scripts/build-web.mjs")], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const buildSeconds = (performance.now() - buildStarted) / 1000;
  const builtAt = statSync(path.join(dist, "index.html")).mtime.toISOString();
  say(`web build ready in ${buildSeconds.toFixed(1)} s (dist/index.html from ${builtAt})`);

  const rows = initialJavaScript();
  say();
  say("initial JavaScript (entry + modulepreload), gzip level 9:");
  for (const row of rows)
    say(`  ${row.href.padEnd(42)} ${kb(row.raw).padStart(10)} raw  ${kb(row.gzip).padStart(9)} gz`);
  const raw = rows.reduce((sum, row) => sum + row.raw, 0);
  const gzip = rows.reduce((sum, row) => sum + row.gzip, 0);
  say(
    `  total: ${kb(gzip)} gzipped (${kb(raw)} raw, ${rows.length} files, ratio ${(raw / gzip).toFixed(2)}×)`,
  );

  const dataDir = makeDataDir();
  dirs.push(dataDir);
  const server = await startServer({
    dataDir,
    env: { FREE_KEY_LIMIT_PER_HOUR: "1000", DATABASE_URL: "" },
  });
  const profile = mkdtempSync(path.join(tmpdir(), "bundler-bench-chromium-"));
  dirs.push(profile);
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1280, height: 800 },
  });
  const page = context.pages()[0] ?? (await context.newPage());

  // A first-time visitor takes a free key through the modal.
  await page.goto(server.url);
  await page.getByRole("button", { name: "Get Free Access" }).click();
  // "Continue to App" is enabled once the key was copied or downloaded.
  await page.getByRole("button", { name: "Download access key" }).click();
  await page.getByRole("button", { name: "Continue to App" }).click();
  await page.getByTestId("auth-modal").waitFor({ state: "hidden" });

  const tokenNameReady = () =>
    page.waitForFunction(
      () => {
        const input = document.querySelector<HTMLInputElement>('input[aria-label="Token name"]');
        if (!input || input.disabled || input.offsetParent === null) return false;
        return performance.now();
      },
      undefined,
      { polling: "raf", timeout: 30_000 },
    );

  await page.goto(`${server.url}/create`);
  await tokenNameReady(); // warm-up: the lazy page chunk is fetched and cached once

  const wall: number[] = [];
  const inPage: number[] = [];
  for (let i = 0; i < RELOADS; i++) {
    const started = performance.now();
    await page.reload({ waitUntil: "commit" });
    const seenAt = (await (await tokenNameReady()).jsonValue()) as number;
    wall.push(performance.now() - started);
    inPage.push(seenAt);
  }
  say();
  say(`create page time to interactive ("Token name" visible and enabled), ${RELOADS} reloads:`);
  say(
    `  in page (since navigation start): median ${median(inPage).toFixed(0)} ms  [${inPage.map((v) => v.toFixed(0)).join(", ")}]`,
  );
  say(
    `  wall (reload call → ready):       median ${median(wall).toFixed(0)} ms  [${wall.map((v) => v.toFixed(0)).join(", ")}]`,
  );
  say(
    `  initial JS ${kb(gzip)} gz; TTI / KB gz: ${(median(inPage) / (gzip / 1024)).toFixed(2)} ms per KB`,
  );
};

try {
  await main();
} finally {
  await cleanup();
}
