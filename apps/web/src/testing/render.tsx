import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render } from "@testing-library/react";
import type { ReactElement } from "react";
import { MemoryRouter } from "react-router";
import { vi } from "vitest";
import { AppToaster } from "../app/shell/app-toaster.tsx";

/**
 * Renders a component the way the app does: a query client, a router (at `route`) and the
 * app's toaster. Queries do not retry, so a failure shows at once.
 */
export function renderInApp(ui: ReactElement, { route = "/" }: { route?: string } = {}) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
  });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
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
