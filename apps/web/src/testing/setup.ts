import { cleanup } from "@testing-library/react";
import toast from "react-hot-toast";
import { afterAll, afterEach, beforeAll, vi } from "vitest";
import { server } from "./msw-server.ts";

// jsdom has no matchMedia; react-hot-toast asks it whether to animate.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  toast.remove();
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());
