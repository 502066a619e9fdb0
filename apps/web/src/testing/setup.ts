import { cleanup, configure } from "@testing-library/react";
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

// A shared 2-core machine can take seconds to render a busy page: wait for it, don't flake.
configure({ asyncUtilTimeout: 5_000 });

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  toast.remove();
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());
