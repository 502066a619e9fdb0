/**
 * The e2e tests' shared setup, as vitest fixtures. Import `test` (and `describe`, `expect`)
 * from here instead of from "vitest", and name in a test's first argument what it needs:
 *
 * ```ts
 * import { describe, expect, test } from "./support/fixtures.ts";
 *
 * describe("the wallet manager", () => {
 *   test("lists the launched bundle", async ({ page, server, launchedBundle }) => {
 *     // `page` is logged in with launchedBundle.key, the key that owns the bundle.
 *     await page.goto(`${server.url}/wallets`);
 *     await page.getByText(launchedBundle.tokenAddress.slice(0, 6)).waitFor();
 *     expect(launchedBundle.wallets).toHaveLength(3);
 *   });
 * });
 * ```
 *
 * A fixture is set up only for the tests that name it (or name one built on it) and torn down
 * after each test, except `server`, which lives for the whole file:
 *
 * - `serverEnv` (file): extra environment for the file's server. Set it once, at the top of a
 *   file: `test.override("serverEnv", { PAYMENT_WINDOW_SECONDS: "8" })`.
 * - `server` (file): the real server as `npm start` runs it (embedded database, local anvil
 *   chain, built web app), on free ports with its own data dir; `server.superadminKey` is set.
 * - `chromium` (file): Debian's Chromium, started once for the file and closed after it.
 * - `browser` (test): a fresh context in it (its own storage, as a fresh profile), a first-time
 *   visitor; `browser.errors` collects console errors.
 * - `page` (test): `browser.page`, not logged in.
 * - `key` (test): a free access key taken in `page` through "Get Free Access": `page` is on the
 *   app, logged in with it. `test.beforeEach(logIn)` logs in every test of a block or file;
 *   `({ page, key: _key })` logs in one test that has no use for the key itself.
 * - `api` (test): the server's HTTP API with `key` (see `Api`: get/post/put, createDraft,
 *   getDraft, draftPlan, faucet), throwing on any answer but 2xx.
 * - `draftInput` (test): what `paidDraft` saves: a launch-ready draft with 3 bundle wallets
 *   buying 0.01 BNB each. Change it for a describe block with
 *   `test.override("draftInput", () => payableDraft("Big Cat", "BIG", { wallets: 10 }))`.
 * - `paidDraft` (test): `draftInput` saved for `key` and its launch fee paid from the faucet on
 *   the local chain, as the payment dialog's [pay from faucet] does: `{ id, input, key }`.
 * - `launchedBundle` (test): `paidDraft` with every address the server's plan names funded
 *   from the faucet, launched through `POST /api/draft/:id/execute` (what [launch] on /drafts
 *   calls), and waited for until the draft is executed: `{ draftId, tokenAddress, blockNumber,
 *   developer, wallets, key }`, keys included. Takes about 20 s.
 *
 * `payDraft` and `launchDraft` do the same for a second draft inside one test.
 */
import type { Address, Hex } from "viem";
import { formatEther, parseEther } from "viem";
import { test as base } from "vitest";
import { type Api, apiClient, until } from "./api.ts";
import { closeChromium, openBrowser } from "./browser.ts";
import { getFreeAccess, type PayableDraft, payableDraft } from "./flows.ts";
import { type RunningServer, startServer } from "./server.ts";

export { describe, expect } from "vitest";

export interface PaidDraft {
  id: string;
  /** What was saved, keys included. */
  input: PayableDraft;
  /** The access key that owns it. */
  key: string;
}

export interface LaunchedBundle {
  draftId: string;
  /** The token the launch created. */
  tokenAddress: Address;
  /** The block that holds the create and the bundle's buys. */
  blockNumber: bigint;
  /** The deployer wallet, which made the creator's buy (the wallet manager's "developer"). */
  developer: { address: Address; privateKey: Hex };
  /** The bundle wallets, each of which bought in the launch block. */
  wallets: Array<{ address: Address; privateKey: Hex }>;
  /** The access key that owns the bundle. */
  key: string;
}

/** Paid from the faucet on top of what the plan says each address needs. */
const FUNDING_MARGIN = parseEther("0.01");

/**
 * `test.beforeEach(logIn)`: every test of the block (or file) starts on the app, logged in with
 * a free key, even one that does not name `key`.
 */
export const logIn = async ({ key }: { key: string }): Promise<void> => {
  if (!key.startsWith("lbk_")) throw new Error(`not an access key: ${key}`);
};

/** Opens the launch-fee payment of draft `id` and pays it from the faucet; waits until paid. */
export async function payDraft(api: Api, id: string): Promise<void> {
  const payment = await api.post<{ paymentAddress: string; paymentAmount: string }>(
    `/api/draft/${id}/payment`,
  );
  await api.faucet(payment.paymentAddress, payment.paymentAmount);
  await until(
    `the launch fee of draft ${id}`,
    async () =>
      (await api.get<{ isPaid: boolean }>(`/api/draft/${id}/payment/status`)).isPaid || undefined,
    { timeoutMs: 30_000 },
  );
}

/**
 * Funds and launches a paid draft as its owner; waits until the draft is executed. With the
 * `server`, a failed launch says the server's reason (its log names every failed launch).
 */
export async function launchDraft(
  api: Api,
  paid: PaidDraft,
  server?: RunningServer,
): Promise<LaunchedBundle> {
  const plan = await api.draftPlan(paid.id);
  for (const { address, required } of plan.funding)
    await api.faucet(address, formatEther(parseEther(required) + FUNDING_MARGIN));
  await api.post(`/api/draft/${paid.id}/execute`);
  const draft = await until(
    `the launch of draft ${paid.id}`,
    async () => {
      const now = await api.getDraft(paid.id);
      // The execute call claimed the draft: back at paid means the launch job gave up.
      if (now.status === "paid") {
        const said = server
          ?.output()
          .split("\n")
          .filter((line) => line.includes("FAILED launch"));
        throw new Error(
          `the launch of draft ${paid.id} failed${said?.length ? `: ${said.join(" / ")}` : ""}`,
        );
      }
      return now.status === "executed" ? now : undefined;
    },
    { timeoutMs: 90_000 },
  );
  if (!draft.launch) throw new Error(`draft ${paid.id} is executed without a launch`);
  const { deployerWallet, walletConfig } = paid.input;
  return {
    draftId: paid.id,
    tokenAddress: draft.launch.tokenAddress as Address,
    blockNumber: BigInt(draft.launch.blockNumber),
    developer: { address: deployerWallet.address, privateKey: deployerWallet.privateKey },
    wallets: walletConfig.wallets.map(({ address, privateKey }) => ({ address, privateKey })),
    key: paid.key,
  };
}

export const test = base
  .extend("serverEnv", { scope: "file" }, {} as Record<string, string>)
  .extend("server", { scope: "file" }, async ({ serverEnv }, { onCleanup }) => {
    const server = await startServer({ env: serverEnv });
    onCleanup(() => server.stop());
    return server;
  })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("chromium", { scope: "file" }, async ({}, { onCleanup }) => {
    onCleanup(closeChromium);
    return true;
  })
  .extend("browser", async ({ chromium: _chromium }, { onCleanup }) => {
    const browser = await openBrowser();
    onCleanup(() => browser.close());
    return browser;
  })
  .extend("page", async ({ browser }) => browser.page)
  .extend("key", async ({ page, server }) => getFreeAccess(page, server.url))
  .extend("api", async ({ server, key }) => apiClient(server.url, key))
  .extend("draftInput", async () => payableDraft("Fixture Cat", "FCAT", { wallets: 3 }))
  .extend("paidDraft", async ({ api, key, draftInput }): Promise<PaidDraft> => {
    const id = await api.createDraft(draftInput);
    await payDraft(api, id);
    return { id, input: draftInput, key };
  })
  .extend("launchedBundle", async ({ api, paidDraft, server }) =>
    launchDraft(api, paidDraft, server),
  );
