import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { AuthContext, type AuthContextValue } from "../../features/auth/hooks/use-auth.ts";
import { renderInApp } from "../../testing/render.tsx";
import { Menu } from "./menu.tsx";

function renderMenu() {
  const auth = {
    state: { status: "authenticated", key: "lbk_menu-test", role: "user" },
    saveSession: async () => {},
    startSession: () => {},
    logout: vi.fn(async () => {}),
    getDeviceId: async () => "device-0001",
    retry: () => {},
  } satisfies AuthContextValue;
  renderInApp(
    <AuthContext.Provider value={auth}>
      <Menu />
    </AuthContext.Provider>,
  );
  return auth;
}

const QUESTION =
  "Are you sure? Save your key first: without it this account cannot be reached again.";

describe("the menu of a logged-in user", () => {
  it("links to the Account page as [account]", () => {
    renderMenu();
    expect(screen.getByRole("link", { name: "[account]" }).getAttribute("href")).toBe("/account");
  });

  it("asks before logging out, with [cancel] and [logout]", () => {
    const auth = renderMenu();
    fireEvent.click(screen.getByRole("button", { name: "[logout]" }));

    const dialog = screen.getByTestId("confirm-dialog");
    expect(dialog.textContent).toContain(QUESTION);
    expect(screen.getByRole("button", { name: "[cancel]" })).toBeTruthy();
    expect(auth.logout).not.toHaveBeenCalled();
  });

  it("stays logged in on [cancel]", () => {
    const auth = renderMenu();
    fireEvent.click(screen.getByRole("button", { name: "[logout]" }));
    fireEvent.click(screen.getByRole("button", { name: "[cancel]" }));

    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
    expect(auth.logout).not.toHaveBeenCalled();
  });

  it("logs out on the dialog's [logout]", () => {
    const auth = renderMenu();
    fireEvent.click(screen.getByRole("button", { name: "[logout]" }));
    const dialog = screen.getByTestId("confirm-dialog");
    fireEvent.click(
      Array.from(dialog.querySelectorAll("button")).find(
        (button) => button.textContent === "[logout]",
      ) as HTMLButtonElement,
    );

    expect(auth.logout).toHaveBeenCalledOnce();
  });
});
