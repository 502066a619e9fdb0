import { createDecipheriv, createHash } from "node:crypto";
import type { Draft } from "@bundler/shared";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { draftStatusHandler } from "../../../testing/drafts-handlers.ts";
import { draftFixture, LOCAL_CONFIG, planFixture } from "../../../testing/fixtures.ts";
import { server } from "../../../testing/msw-server.ts";
import { renderInApp, toastTexts } from "../../../testing/render.tsx";
import { deliverSocketEvent } from "../../../testing/socket-events.ts";
import { LaunchPage } from "./launch-page.tsx";

const KEY = "lbk_launch_page_key";
const DEPLOYER_KEY = `0x${"11".repeat(32)}` as const;
const WALLET_KEY = `0x${"22".repeat(32)}` as const;
const deployer = privateKeyToAccount(DEPLOYER_KEY).address;
const wallet = privateKeyToAccount(WALLET_KEY).address;
const LOGO =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const paid = draftFixture({
  status: "paid",
  tokenInfo: { ...draftFixture().tokenInfo, image: LOGO },
  deployerWallet: { address: deployer, privateKey: DEPLOYER_KEY },
  walletConfig: {
    ...draftFixture().walletConfig,
    wallets: [{ address: wallet, privateKey: WALLET_KEY, buyValue: "0.01" }],
  },
});

/** What the server's `openAccessKeyPayload` reads from `data`. */
const openPayload = (data: string) => {
  const bytes = Buffer.from(data, "base64");
  const key = createHash("sha256").update(KEY, "utf8").digest();
  const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return JSON.parse(
    Buffer.concat([
      decipher.update(bytes.subarray(12, bytes.length - 16)),
      decipher.final(),
    ]).toString("utf8"),
  ) as unknown;
};

/** The server behind the create page for one paid, funded draft; records what it was sent. */
function paidDraftServer(
  execute: () => Response = () =>
    HttpResponse.json({ success: true, message: "Launch started: follow it in the terminal" }),
  { balance = "1", faucet = false }: { balance?: string; faucet?: boolean } = {},
) {
  const seen = {
    updates: 0,
    executePayloads: [] as unknown[],
    liveStatus: "paid" as Draft["status"],
  };
  const plan = planFixture({
    funding: [
      { address: deployer, roles: ["deployer"], required: "0.01" },
      { address: wallet, roles: ["bundle"], required: "0.0103" },
    ],
  });
  server.use(
    http.get("/api/config", () =>
      HttpResponse.json({ success: true, config: { ...LOCAL_CONFIG, faucet } }),
    ),
    http.get(`/api/draft/${paid._id}`, () =>
      HttpResponse.json({
        success: true,
        draft: { ...paid, status: seen.liveStatus },
      }),
    ),
    draftStatusHandler(paid._id, () => seen.liveStatus).handler,
    http.put(`/api/draft/${paid._id}`, () => {
      seen.updates += 1;
      return HttpResponse.json({ success: true, draft: paid, draftId: paid._id });
    }),
    http.post("/api/bundle/plan", () => HttpResponse.json({ success: true, plan })),
    http.post("/api/wallets/balances", () =>
      HttpResponse.json({
        success: true,
        message: "",
        asOfBlock: "1",
        balances: [
          { address: deployer, balance },
          { address: wallet, balance },
        ],
      }),
    ),
    http.get(`/api/draft/${paid._id}/summary`, () => HttpResponse.json({ success: true, plan })),
    http.post("/api/bundle/execute", async ({ request }) => {
      const body = (await request.json()) as { data: string };
      seen.executePayloads.push(openPayload(body.data));
      seen.liveStatus = "executing";
      return execute();
    }),
  );
  renderInApp(<LaunchPage />, { route: `/create?draft=${paid._id}`, authKey: KEY });
  return seen;
}

/**
 * The page loads the draft, its plan and its balances before offering Execute Launch: seconds on
 * a busy 2-core machine.
 */
const LOADED = { timeout: 15_000 };

const CONFIRM = "Are you ready to launch Moon Cat (MCAT)? This action cannot be undone.";

/** Clicks [launch] once the confirmation has checked every wallet's balance. */
const launchWhenChecked = async (confirm: HTMLElement) => {
  const launch = within(confirm).getByRole("button", { name: "[launch]" }) as HTMLButtonElement;
  await waitFor(() => expect(launch.disabled).toBe(false));
  fireEvent.click(launch);
};

describe("executing a paid draft from the launch page", () => {
  it("saves, asks the spec's confirmation, calls POST /api/bundle/execute and follows the terminal", async () => {
    const seen = paidDraftServer();
    const execute = await screen.findByRole("button", { name: "Execute Launch" }, LOADED);
    expect(screen.queryByRole("button", { name: "Pay Now" })).toBeNull();

    fireEvent.click(execute);
    const confirm = await screen.findByTestId("confirm-dialog");
    expect(seen.updates).toBe(1);
    expect(within(confirm).getByText(CONFIRM)).toBeTruthy();
    expect((await within(confirm).findByTestId("execute-total")).textContent).toBe("0.5386 BNB");

    await launchWhenChecked(confirm);
    const terminal = await screen.findByTestId("bundle-terminal");
    await waitFor(() => expect(seen.executePayloads).toEqual([{ draftId: paid._id }]));

    deliverSocketEvent(`launch_status_${KEY}`, {
      message: `SUCCESS MCAT launched: token 0x${"cd".repeat(20)} created in block 9, 1/1 wallets bought in the same block`,
    });
    expect(within(terminal).getByTestId("terminal-outcome").textContent).toBe("Launch complete");
  });

  it("shows the server's refusal as one toast and closes the terminal", async () => {
    paidDraftServer(() =>
      HttpResponse.json(
        { success: false, error: "This draft is being launched right now" },
        { status: 409 },
      ),
    );
    fireEvent.click(await screen.findByRole("button", { name: "Execute Launch" }, LOADED));
    await launchWhenChecked(await screen.findByTestId("confirm-dialog"));

    await waitFor(() => expect(toastTexts()).toEqual(["This draft is being launched right now"]));
    await waitFor(() => expect(screen.queryByTestId("bundle-terminal")).toBeNull());
  });

  it("checks launch readiness before saving: a missing tip is said, nothing is sent", async () => {
    const seen = paidDraftServer();
    const tip = await screen.findByLabelText("Tip", { exact: true }, LOADED);
    fireEvent.change(tip, { target: { value: "" } });
    fireEvent.click(await screen.findByRole("button", { name: "Execute Launch" }, LOADED));

    await waitFor(() => expect(toastTexts()).toEqual(["Please enter a tip amount"]));
    expect(seen.updates).toBe(0);
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
  });

  it("marks the wallet the server refused, with the server's sentence", async () => {
    paidDraftServer();
    server.use(
      http.put(`/api/draft/${paid._id}`, () =>
        HttpResponse.json(
          {
            success: false,
            error: "Wallet 1 buy must be a BNB amount below 1,000,000,000",
            field: "walletConfig.wallets.0.buyValue",
            row: 1,
          },
          { status: 400 },
        ),
      ),
    );
    fireEvent.click(await screen.findByRole("button", { name: "Update Draft" }, LOADED));

    const problem = await screen.findByTestId("wallet-problem");
    expect(problem.textContent).toContain("Wallet 1 buy must be a BNB amount below 1,000,000,000");
    fireEvent.click(within(problem).getByRole("button", { name: "[view wallet 1]" }));
    const [row] = await screen.findAllByTestId("wallet-row");
    expect(row?.getAttribute("aria-invalid")).toBe("true");
    expect(row?.textContent).toContain("Wallet 1 buy must be a BNB amount below 1,000,000,000");
  });
});

describe("funding the launch's addresses from the faucet on the create page", () => {
  it("shows each address's payment move in its row: queued, sending, then confirmed with its hash", async () => {
    const released: Array<() => void> = [];
    paidDraftServer(undefined, { balance: "0", faucet: true });
    server.use(
      http.post("/api/dev/faucet", async () => {
        await new Promise<void>((resolve) => released.push(resolve));
        return HttpResponse.json({ success: true, hash: `0x${"ab".repeat(32)}`, amount: "0.02" });
      }),
    );
    fireEvent.click(await screen.findByRole("button", { name: "[fund all]" }, LOADED));

    const stepOf = (address: string) =>
      document
        .querySelector(`section[aria-labelledby='section-funding'] [data-address="${address}"]`)
        ?.querySelector("[data-testid='faucet-step']");
    await waitFor(() => expect(stepOf(deployer)?.textContent?.trim()).toBe("sending..."));
    expect(stepOf(wallet)?.textContent).toBe("queued");

    released.shift()?.();
    await waitFor(() => expect(stepOf(deployer)?.textContent).toBe("confirmed 0xabab…abab"));
    expect(stepOf(wallet)?.textContent?.trim()).toBe("sending...");
    released.shift()?.();
    await waitFor(() => expect(stepOf(wallet)?.textContent).toBe("confirmed 0xabab…abab"));
  });
});

describe("the create page's main button", () => {
  it("puts Generate Wallets in the Bundle Wallets section, by the wallets it fills", async () => {
    server.use(
      http.get("/api/config", () => HttpResponse.json({ success: true, config: LOCAL_CONFIG })),
    );
    renderInApp(<LaunchPage />, { route: "/create", authKey: KEY });

    const section = await screen.findByRole("region", { name: "#Bundle Wallets" }, LOADED);
    expect(within(section).getByRole("button", { name: "Generate Wallets" })).toBeTruthy();
    expect(screen.getAllByRole("button", { name: "Generate Wallets" })).toHaveLength(1);
  });
});
