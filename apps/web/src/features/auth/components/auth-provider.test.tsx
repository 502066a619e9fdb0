import { act, fireEvent, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { KeyStore } from "../../../lib/key-store.ts";
import { renderInApp } from "../../../testing/render.tsx";
import { useAuth } from "../hooks/use-auth.ts";
import { AuthProvider } from "./auth-provider.tsx";

/** A store holding a key validated a minute ago (trusted at start-up), whose clear we release. */
const store = vi.hoisted(() => {
  let releaseClear = () => {};
  let cleared = false;
  return {
    release: () => releaseClear(),
    cleared: () => cleared,
    value: {
      load: async () => ({ key: "lbk_stored", role: "user", lastValidatedAt: Date.now() - 60_000 }),
      save: async () => {},
      clear: () =>
        new Promise<void>((resolve) => {
          releaseClear = () => {
            cleared = true;
            resolve();
          };
        }),
      deviceId: async () => "device",
      mode: async () => "secure",
    } as KeyStore,
  };
});
vi.mock("../../../lib/key-store-browser.ts", () => ({ getKeyStore: () => store.value }));

const Probe = () => {
  const { status, logout } = useAuth();
  return (
    <>
      <p data-testid="status">{status}</p>
      <button type="button" onClick={() => void logout()}>
        log out
      </button>
    </>
  );
};

describe("the auth provider", () => {
  it("shows the logged-out state only once the stored key is gone", async () => {
    renderInApp(
      <AuthProvider>
        <Probe />
      </AuthProvider>,
    );
    expect((await screen.findByText("authenticated")).textContent).toBe("authenticated");

    fireEvent.click(screen.getByRole("button", { name: "log out" }));
    // The store has not cleared yet: a reload now would find the key, so no logged-out screen.
    await act(async () => {});
    expect(screen.getByTestId("status").textContent).toBe("authenticated");

    await act(async () => store.release());
    expect(store.cleared()).toBe(true);
    expect(screen.getByTestId("status").textContent).toBe("anonymous");
  });
});
