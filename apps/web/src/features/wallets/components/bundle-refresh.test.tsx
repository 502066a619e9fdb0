import { act, screen } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { advance, settle } from "../../../testing/render.tsx";
import { walletBalance } from "../../../testing/wallets-handlers.ts";
import { fourWallets, loadPage, stubResizeObserver } from "./bundle-detail-test-utils.tsx";

beforeAll(async () => {
  stubResizeObserver();
  // The chart is lazily loaded; loading a module never finishes while time is fake.
  await import("./supply-chart.tsx");
});
beforeEach(() => {
  vi.useFakeTimers();
});

let visibility: DocumentVisibilityState = "visible";
const showTab = (state: DocumentVisibilityState) => {
  visibility = state;
  act(() => {
    document.dispatchEvent(new Event("visibilitychange"));
  });
};
beforeAll(() => {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => visibility });
});
afterEach(() => {
  visibility = "visible";
});

describe("a bundle's balances", () => {
  it("are read again every 10 s while the page is shown, and the page shows what changed", async () => {
    let answer = fourWallets();
    const page = await loadPage(() => answer);
    expect(screen.getByTestId("overview-bnb").textContent).toBe("0.5025 BNB");
    const [first, ...rest] = answer.balances;
    answer = {
      ...answer,
      balances: [walletBalance(first?.address ?? "", 30_000_000n, "1.5"), ...rest],
    };

    await advance(9_900);
    expect(page.balances.calls).toBe(1);
    await advance(100);
    expect(page.balances.calls).toBe(2);
    expect(screen.getByTestId("overview-bnb").textContent).toBe("1.5025 BNB");
    await advance(10_000);
    expect(page.balances.calls).toBe(3);
  });

  it("are not read while the tab is hidden", async () => {
    const page = await loadPage();
    showTab("hidden");
    await advance(30_000);
    expect(page.balances.calls).toBe(1);
  });

  it("are read again when the window gets the focus back", async () => {
    const page = await loadPage();
    act(() => {
      window.dispatchEvent(new Event("focus"));
    });
    await settle();
    expect(page.balances.calls).toBe(2);
  });

  it("are read again when the tab is shown again", async () => {
    const page = await loadPage();
    showTab("hidden");
    await advance(1_000);
    showTab("visible");
    await settle();
    expect(page.balances.calls).toBe(2);
  });
});
