import path from "node:path";

/**
 * The server's folder (apps/server): its migrations are in `drizzle/`, the web app's build in
 * `../web/dist`. Read from this file's place, which the bundle (`dist/main.mjs`, made by
 * scripts/build-server.mjs) shares: both sit one level below it.
 */
export const SERVER_ROOT = path.resolve(import.meta.dirname, "..");
