import { fireEvent, screen } from "@testing-library/react";
import { type HttpHandler, HttpResponse, http } from "msw";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { BUMPER_WALLET, bumperFixture } from "../../../testing/bumper-handlers.ts";
import { LOCAL_CONFIG } from "../../../testing/fixtures.ts";
import { settle, toastTexts } from "../../../testing/render.tsx";
import {
  postHandler,
  press,
  renderBumperPage,
  selectBumper,
  serverState,
} from "./bumper-test-utils.tsx";

beforeEach(() => {
  vi.useFakeTimers();
});

/** The page with one bumper (6 bumps of 0.01 BNB: 0.016 BNB needed) selected. */
async function withBumper(
  overrides: Parameters<typeof bumperFixture>[0] = {},
  handlers: HttpHandler[] = [],
) {
  const rendered = await renderBumperPage(
    serverState({ bumpers: [bumperFixture(overrides)] }),
    handlers,
  );
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
    expect(screen.getByTestId("bumper-funding").textContent).toBe("Need 0.0110 more BNB");
  });

  it("says the balance is sufficient once it covers the buy size and the gas of every bump", async () => {
    await withBumper({ balance: "0.016" });
    expect(screen.getByTestId("bumper-funding").textContent).toBe("Sufficient balance");
  });

  it("counts a balance of exactly buy size + 0.001 BNB a bump as sufficient (no float dust)", async () => {
    // 0.01 + 0.001 × 3 is 0.013000000000000001 as a float.
    await withBumper({ balance: "0.013", totalBumps: 3 });
    expect(screen.getByTestId("bumper-funding").textContent).toBe("Sufficient balance");
  });

  it("rounds what is missing up to the 4 decimals shown", async () => {
    await withBumper({ balance: "0.01599999" });
    expect(screen.getByTestId("bumper-funding").textContent).toBe("Need 0.0001 more BNB");
  });

  it("counts only the bumps still to make once some are done", async () => {
    await withBumper({ balance: "0.012", bumpsCompleted: 4, status: "stopped" });
    expect(screen.getByTestId("bumper-funding").textContent).toBe("Sufficient balance");
  });
});

describe("funding from the local faucet", () => {
  const withFaucet = http.get("/api/config", () =>
    HttpResponse.json({ success: true, config: { ...LOCAL_CONFIG, faucet: true } }),
  );

  it("pays the missing BNB to the bumper's address from the faucet", async () => {
    const sent = postHandler("/api/dev/faucet", () =>
      HttpResponse.json({ success: true, hash: `0x${"f".repeat(64)}`, amount: "0.011" }),
    );
    await withBumper({ balance: "0.005" }, [withFaucet]);
    press("[fund from faucet]");
    await settle();
    expect(sent).toEqual([{ address: BUMPER_WALLET, amount: "0.011" }]);
    expect(toastTexts()).toContain("Sent 0.0110 BNB from the faucet");
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
    fireEvent.click(screen.getByRole("tab", { name: /^Completed/ }));
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
