import { fireEvent, screen } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  bumperFixture,
  bumperListAnswer,
  bumperWalletFixture,
  bumpFixture,
} from "../../../testing/bumper-handlers.ts";
import { advance, renderInApp } from "../../../testing/render.tsx";
import { AuthContext, type AuthState } from "../../auth/hooks/use-auth.ts";
import { BumperPage } from "./bumper-page.tsx";
import { renderBumperPage, selectBumper, serverState } from "./bumper-test-utils.tsx";

beforeAll(async () => {
  globalThis.ResizeObserver = class {
    constructor(private readonly callback: ResizeObserverCallback) {}
    observe(target: Element) {
      const entry = { target, contentRect: { width: 640, height: 224 } } as ResizeObserverEntry;
      this.callback([entry], this as unknown as ResizeObserver);
    }
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
  // The chart is lazily loaded; loading a module never finishes while time is fake.
  await import("./bumps-chart.tsx");
});
beforeEach(() => {
  vi.useFakeTimers();
});

function renderAs(state: AuthState) {
  const auth = {
    state,
    saveSession: async () => {},
    startSession: () => {},
    logout: async () => {},
    getDeviceId: async () => "device",
    retry: () => {},
  };
  return renderInApp(
    <AuthContext.Provider value={auth}>
      <BumperPage />
    </AuthContext.Provider>,
    { route: "/tools/bumper" },
  );
}

describe("the bumper page before login", () => {
  it("says it is authenticating while the session loads", () => {
    renderAs({ status: "loading" });
    expect(screen.getByText("Authenticating...")).toBeTruthy();
  });

  it("asks a logged-out visitor to log in", () => {
    renderAs({ status: "anonymous" });
    expect(
      screen.getByText("Authentication required. Please log in to use the Bumper tool."),
    ).toBeTruthy();
  });

  it("links back to the tools", () => {
    renderAs({ status: "anonymous" });
    expect(screen.getByRole("link", { name: "[back to tools]" }).getAttribute("href")).toBe(
      "/tools",
    );
  });
});

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

const running = () =>
  bumperFixture({
    active: true,
    status: "active",
    balance: "0.02",
    bumpsCompleted: 2,
    gasSpent: "0.0008",
    volume: "0.0396",
    nextBumpAt: new Date(NOW + 125_000).toISOString(),
  });

describe("a selected bumper's stats", () => {
  beforeEach(() => {
    vi.setSystemTime(NOW);
  });

  it("counts the bumps made out of the bumps configured", async () => {
    await renderBumperPage(serverState({ bumpers: [running()] }));
    await selectBumper();
    expect(screen.getByTestId("stat-bumps").textContent).toBe("2 / 6");
  });

  it("counts down to the next bump each second", async () => {
    await renderBumperPage(serverState({ bumpers: [running()] }));
    await selectBumper();
    const first = screen.getByTestId("stat-next").textContent;
    await advance(1_000);
    expect(first).toMatch(/^2m 0\ds$/);
    expect(screen.getByTestId("stat-next").textContent).not.toBe(first);
  });

  it("shows the gas spent, and the volume in BNB and in USD at the server's price", async () => {
    await renderBumperPage(serverState({ bumpers: [running()], price: 700 }));
    await selectBumper();
    expect(screen.getByTestId("stat-gas").textContent).toBe("0.0008 BNB");
    expect(screen.getByTestId("stat-volume").textContent).toBe("0.0396 BNB ≈ $27.72");
  });

  it("values the volume at 600 USD a BNB when the price cannot be read", async () => {
    await renderBumperPage(serverState({ bumpers: [running()] }), [
      http.get("/api/bumper/price", () => HttpResponse.json({ success: false }, { status: 500 })),
    ]);
    await selectBumper();
    expect(screen.getByTestId("stat-volume").textContent).toBe("0.0396 BNB ≈ $23.76");
  });

  it("reads the BNB price again at the start of the next minute", async () => {
    vi.setSystemTime(NOW + 30_000);
    const page = await renderBumperPage(serverState({ bumpers: [running()] }));
    expect(page.calls.price).toBe(1);
    await advance(29_000);
    expect(page.calls.price).toBe(1);
    await advance(2_000);
    expect(page.calls.price).toBe(2);
    expect(new Date().getUTCSeconds()).toBeLessThan(10);
  });

  it("draws the bumps made on the chart", async () => {
    await renderBumperPage(
      serverState({ bumpers: [running()], bumps: [bumpFixture(0), bumpFixture(1)] }),
    );
    await selectBumper();
    expect(screen.getByTestId("bumps-chart")).toBeTruthy();
    expect(screen.getByText("price (BNB per token)")).toBeTruthy();
  });

  it("says there are no bumps yet before the first one", async () => {
    await renderBumperPage(serverState({ bumpers: [bumperFixture()] }));
    await selectBumper();
    expect(screen.getByText(/^No bumps yet/)).toBeTruthy();
  });
});

describe("the bumper's wallets", () => {
  const wallets = [
    bumperWalletFixture(0, { balance: "0", tokens: "0" }),
    bumperWalletFixture(1, { balance: "0.0191", tokens: "12,345", isActive: true }),
  ];

  it("lists every wallet the bumper used with its BNB and tokens", async () => {
    await renderBumperPage(serverState({ bumpers: [running()], wallets }));
    await selectBumper();
    const rows = screen.getAllByTestId("bumper-wallet-row").map((row) => row.textContent);
    expect(rows).toEqual(["10x0001…cccc0.00000", "20x0002…cccc0.019112,345● active"]);
  });

  it("shows the active wallet's address and balance", async () => {
    await renderBumperPage(serverState({ bumpers: [running()], wallets }));
    await selectBumper();
    const active = screen.getByTestId("active-wallet").textContent;
    expect(active).toContain(wallets[1]?.address);
    expect(active).toContain("0.0191 BNB");
  });

  it("opens a bumper from the list by clicking it", async () => {
    await renderBumperPage(serverState({ bumpers: [running()] }));
    fireEvent.click(screen.getByTestId("bumper-row"));
    expect(screen.getByTestId("bumper-row").getAttribute("aria-pressed")).toBe("true");
  });
});

describe("a running bumper that completes", () => {
  beforeEach(() => {
    vi.setSystemTime(NOW);
  });

  it("moves to the Completed tab and lists its last wallet once the page sees it complete", async () => {
    const before = {
      bumpers: [running()],
      wallets: [
        bumperWalletFixture(0),
        bumperWalletFixture(1),
        bumperWalletFixture(2, { isActive: true }),
      ],
    };
    const after = {
      bumpers: [
        bumperFixture({
          ...running(),
          active: false,
          status: "completed",
          bumpsCompleted: 6,
          nextBumpAt: null,
        }),
      ],
      wallets: [
        ...before.wallets.map((w) => ({ ...w, isActive: false })),
        bumperWalletFixture(3, { isActive: true }),
      ],
    };
    let landed = false;
    // The list and the wallets polled just before the last bump landed: their first read
    // after it still answers the state from before.
    const reads = { list: 0, wallets: 0 };
    const stale = (route: keyof typeof reads) => {
      reads[route] += 1;
      return !landed || reads[route] <= 2;
    };
    await renderBumperPage(serverState(before), [
      http.get("/api/bumper/user", ({ request }) =>
        HttpResponse.json(
          bumperListAnswer(stale("list") ? before.bumpers : after.bumpers, request),
        ),
      ),
      http.get("/api/bumper/:id/wallets", () =>
        HttpResponse.json({
          success: true,
          wallets: stale("wallets") ? before.wallets : after.wallets,
        }),
      ),
      http.get("/api/bumper/:id", () =>
        HttpResponse.json({
          success: true,
          bumper: (landed ? after : before).bumpers[0],
          bumps: [],
        }),
      ),
    ]);
    await selectBumper();
    expect(screen.getByRole("tab", { name: /Completed/ }).textContent).toBe("Completed (0)");
    expect(screen.getAllByTestId("bumper-wallet-row")).toHaveLength(3);

    landed = true;
    await advance(10_000);
    await advance(0);
    expect(screen.getByTestId("completed-banner")).toBeTruthy();
    // Nothing polls a bumper that is no longer active: the change itself reads them again.
    await advance(30_000);
    expect(screen.getByRole("tab", { name: /Completed/ }).textContent).toBe("Completed (1)");
    expect(screen.getAllByTestId("bumper-wallet-row")).toHaveLength(4);
  });
});
