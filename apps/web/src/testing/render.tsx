import type { Role } from "@bundler/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render } from "@testing-library/react";
import type { ReactElement } from "react";
import { MemoryRouter, useLocation } from "react-router";
import { vi } from "vitest";
import { AppToaster } from "../app/shell/app-toaster.tsx";
import { AuthContext, type AuthContextValue } from "../features/auth/hooks/use-auth.ts";

/** A signed-in session with `key` and `role`, for components that ask `useAuth`. */
const signedIn = (key: string, role: Role): AuthContextValue => ({
  state: { status: "authenticated", key, role },
  saveSession: async () => {},
  startSession: () => {},
  logout: async () => {},
  getDeviceId: async () => "test-device",
  retry: () => {},
});

/**
 * Renders a component the way the app does: a query client, a router (at `route`) and the
 * app's toaster; with `authKey`, signed in with that key as `role` (user unless told).
 * Queries do not retry, so a failure shows at once.
 */
export function renderInApp(
  ui: ReactElement,
  { route = "/", authKey, role = "user" }: { route?: string; authKey?: string; role?: Role } = {},
) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
  });
  const routed = <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>;
  const result = render(
    <QueryClientProvider client={queryClient}>
      {authKey ? (
        <AuthContext.Provider value={signedIn(authKey, role)}>{routed}</AuthContext.Provider>
      ) : (
        routed
      )}
      <AppToaster />
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}

/** The toasts on screen now, as their text. */
export const toastTexts = (): string[] =>
  Array.from(document.querySelectorAll("[data-rht-toaster] [role='status']")).map(
    (element) => element.textContent ?? "",
  );

/**
 * Moves fake time forward, letting React, the query client and msw settle in between. A 0 ms
 * timer set while fake timers run fires 1 ms later, so a few 1 ms steps follow: a chain of
 * them (fetch answered, query notified, React rendered) completes within the call.
 */
export const advance = (ms: number) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
    for (let step = 0; step < 5; step++) await vi.advanceTimersByTimeAsync(1);
  });

/** Lets pending work (a fetch answered by msw, a state update) settle, moving time by 5 ms. */
export const settle = () => advance(0);

/** The router's current path and query, for tests that check what the URL says. */
export function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}
