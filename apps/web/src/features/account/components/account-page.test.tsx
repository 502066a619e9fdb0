import { fireEvent, screen } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { keyPurchaseServer } from "../../../testing/key-purchase-handlers.ts";
import { server } from "../../../testing/msw-server.ts";
import { renderInApp } from "../../../testing/render.tsx";
import { AccountPage } from "./account-page.tsx";

const KEY = "lbk_account-page-key-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaWXYZ";
const CREATED = "2026-11-24T15:04:00.000Z";

const accountServer = (kind = "free") =>
  server.use(
    http.get("/api/auth/account", () =>
      HttpResponse.json({ success: true, account: { kind, role: "user", createdAt: CREATED } }),
    ),
  );

const renderPage = () => renderInApp(<AccountPage />, { route: "/account", authKey: KEY });

afterEach(() => localStorage.clear());

describe("the Account page", () => {
  it("shows the access key masked, its kind, role and creation date", async () => {
    accountServer("purchased");
    renderPage();

    await vi.waitFor(() => expect(screen.getByTestId("account-kind").textContent).toBe("paid"));
    const shown = screen.getByTestId("account-key").textContent ?? "";
    expect(shown).not.toContain(KEY.slice(6, -4));
    expect(shown.startsWith("lbk_ac")).toBe(true);
    expect(shown.endsWith("WXYZ")).toBe(true);
    expect(screen.getByTestId("account-role").textContent).toBe("user");
    expect(screen.getByTestId("account-created").textContent).toMatch(/^Nov 24, 2026/);
  });

  it("shows the whole key on [show] and masks it again on [hide]", async () => {
    accountServer();
    renderPage();
    fireEvent.click(screen.getByRole("button", { name: "[show]" }));
    expect(screen.getByTestId("account-key").textContent).toBe(KEY);
    fireEvent.click(screen.getByRole("button", { name: "[hide]" }));
    expect(screen.getByTestId("account-key").textContent).not.toBe(KEY);
  });

  it("refuses a backup passphrase under 8 characters without asking for the keys", async () => {
    accountServer();
    renderPage();
    fireEvent.change(screen.getByLabelText("Backup passphrase"), { target: { value: "short" } });
    fireEvent.change(screen.getByLabelText("Repeat the passphrase"), {
      target: { value: "short" },
    });
    fireEvent.click(screen.getByRole("button", { name: "[download backup]" }));

    expect((await screen.findByTestId("backup-problem")).textContent).toBe(
      "The passphrase must be at least 8 characters",
    );
  });

  it("buys a key with the referral code typed on the page", async () => {
    accountServer();
    const { state, handlers } = keyPurchaseServer();
    server.use(...handlers);
    renderPage();
    fireEvent.change(screen.getByLabelText("Referral code (optional)"), {
      target: { value: "CATS" },
    });
    fireEvent.click(screen.getByRole("button", { name: "[buy access key]" }));

    expect((await screen.findByTestId("key-discount")).textContent).toBe("−$0.60");
    expect(state.starts).toEqual([{ deviceId: "test-device", referralCode: "CATS" }]);
  });
});
