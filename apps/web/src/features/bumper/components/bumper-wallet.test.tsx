import { screen } from "@testing-library/react";
import { type HttpHandler, HttpResponse, http } from "msw";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { BUMPER_WALLET, bumperFixture } from "../../../testing/bumper-handlers.ts";
import { LOCAL_CONFIG } from "../../../testing/fixtures.ts";
import { settle, toastTexts } from "../../../testing/render.tsx";
import {
  openTabOf,
  postHandler,
  press,
  renderBumperPage,
  selectBumper,
  serverState,
} from "./bumper-test-utils.tsx";

beforeEach(() => {
  vi.useFakeTimers();
});

/**
 * The page with one bumper selected: 6 bumps of 0.01 BNB, each costing a 0.0005 tip, up to
 * 0.0007 of gas and 0.0002 of trading fees (COSTS_FIXTURE): 0.0184 BNB needed.
 */
async function withBumper(
  overrides: Parameters<typeof bumperFixture>[0] = {},
  handlers: HttpHandler[] = [],
) {
  const rendered = await renderBumperPage(
    serverState({ bumpers: [bumperFixture(overrides)] }),
    handlers,
  );
  await openTabOf(overrides.status ?? "ready");
  await selectBumper();
  return rendered;
}

const button = (name: string) => screen.getByRole("button", { name }) as HTMLButtonElement;

describe("the bumper wallet card", () => {
  it("shows the address to fund with a copy button, and its balance", async () => {
    await withBumper({ balance: "0.005" });
    expect(screen.getByTestId("bumper-address").textContent).toBe(BUMPER_WALLET);
    expect(button("Copy bumper address")).toBeTruthy();
    expect(screen.getByTestId("bumper-balance").textContent).toBe("0.0050 BNB");
  });

  it("says how much more BNB the bumps need when the balance falls short", async () => {
    await withBumper({ balance: "0.005" });
    expect(screen.getByTestId("bumper-funding").textContent).toBe("Need 0.0134 more BNB");
  });

  it("says the balance is sufficient once it covers the buy size and every bump's tip, gas and fees", async () => {
    await withBumper({ balance: "0.0184" });
    expect(screen.getByTestId("bumper-funding").textContent).toBe("Sufficient balance");
  });

  it("still asks for more when the balance covers only the spec's 0.001 BNB a bump", async () => {
    await withBumper({ balance: "0.016" });
    expect(screen.getByTestId("bumper-funding").textContent).toBe("Need 0.0024 more BNB");
  });

  it("counts a balance of exactly the plan as sufficient (no float dust)", async () => {
    // 0.01 + 0.0014 × 3 in wei, not in floats.
    await withBumper({ balance: "0.0142", totalBumps: 3 });
    expect(screen.getByTestId("bumper-funding").textContent).toBe("Sufficient balance");
  });

  it("rounds what is missing up to the 4 decimals shown", async () => {
    await withBumper({ balance: "0.01839999" });
    expect(screen.getByTestId("bumper-funding").textContent).toBe("Need 0.0001 more BNB");
  });

  it("counts only the bumps still to make once some are done", async () => {
    // 0.01 + 2 × 0.0014 = 0.0128 for the last two.
    await withBumper({ balance: "0.013", bumpsCompleted: 4, status: "stopped" });
    expect(screen.getByTestId("bumper-funding").textContent).toBe("Sufficient balance");
  });
});

describe("the address to fund", () => {
  it("says to fund it before starting and that each bump moves the BNB to a new wallet", async () => {
    await withBumper();
    expect(screen.getByTestId("bumper-address-note").textContent).toBe(
      "Fund this address before you start. After each bump the bumper moves its BNB to a new wallet, and this card then shows that wallet's address.",
    );
  });

  it("shows the wallet the bumper moved to, saying it is the one to fund now", async () => {
    const now = `0x${"e".repeat(40)}`;
    await withBumper({ address: now, currentWalletIndex: 2, bumpsCompleted: 2, status: "stopped" });
    expect(screen.getByTestId("bumper-address").textContent).toBe(now);
    expect(screen.getByTestId("bumper-address-note").textContent).toBe(
      "The bumper has moved to a new wallet 2 times since it was generated: this is its address now. Send BNB only to the address shown here, not to an earlier one.",
    );
  });
});

describe("funding from the local faucet", () => {
  const withFaucet = http.get("/api/config", () =>
    HttpResponse.json({ success: true, config: { ...LOCAL_CONFIG, faucet: true } }),
  );

  it("pays the missing BNB to the bumper's address from the faucet", async () => {
    const sent = postHandler("/api/dev/faucet", () =>
      HttpResponse.json({ success: true, hash: `0x${"f".repeat(64)}`, amount: "0.0134" }),
    );
    await withBumper({ balance: "0.005" }, [withFaucet]);
    press("[fund from faucet]");
    await settle();
    expect(sent).toEqual([{ address: BUMPER_WALLET, amount: "0.0134" }]);
    expect(toastTexts()).toContain("Sent 0.0134 BNB from the faucet");
  });

  it("offers no faucet once the balance is sufficient", async () => {
    await withBumper({ balance: "0.02" }, [withFaucet]);
    expect(screen.queryByRole("button", { name: "[fund from faucet]" })).toBeNull();
  });

  it("offers no funding for a completed bumper, which cannot start again", async () => {
    await renderBumperPage(
      serverState({ bumpers: [bumperFixture({ bumpsCompleted: 6, status: "completed" })] }),
      [withFaucet],
    );
    await openTabOf("completed");
    await selectBumper();
    expect(screen.getByTestId("bumper-balance").textContent).toBe("0.0000 BNB");
    expect(screen.queryByTestId("bumper-funding")).toBeNull();
    expect(screen.queryByRole("button", { name: "[fund from faucet]" })).toBeNull();
  });

  it("offers no faucet where the server has none", async () => {
    await withBumper({ balance: "0" });
    expect(screen.queryByRole("button", { name: "[fund from faucet]" })).toBeNull();
  });
});

describe("starting and stopping", () => {
  it("cannot start a bumper holding no BNB", async () => {
    await withBumper({ balance: "0" });
    expect(button("Start bumper").disabled).toBe(true);
  });

  it("can start a funded bumper", async () => {
    await withBumper({ balance: "0.02" });
    expect(button("Start bumper").disabled).toBe(false);
  });

  it("offers Stop instead of Start while the bumper runs", async () => {
    await withBumper({ balance: "0.02", active: true, status: "active" });
    expect(button("Stop bumper").disabled).toBe(false);
    expect(screen.queryByRole("button", { name: "Start bumper" })).toBeNull();
  });

  it("says why a bumper stopped by itself", async () => {
    await withBumper({ balance: "0.0001", status: "stopped", stopReason: "balance too low" });
    expect(screen.getByTestId("stop-reason").textContent).toBe("stopped: balance too low");
  });
});
