/** apps/server/dist/main.mjs: the server's sources in one file (scripts/build-server.mjs). */
export const serverBundle: string;
/** Bundles the server when its sources changed since the last bundle; answers whether it did. */
export function buildServerIfStale(): boolean;
/** Node's arguments that run the server: its bundle, made first when stale. */
export function serverArgs(): string[];
