import { setupServer } from "msw/node";

/**
 * The API as component tests see it: every request the app makes goes to a handler a test
 * installs with `server.use(...)`; one without a handler fails the test.
 */
export const server = setupServer();
