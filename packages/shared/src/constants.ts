/** Business constants and limits from SPEC §9, shared by server and web. */

export const ROLES = ["user", "admin", "superadmin"] as const;
export type Role = (typeof ROLES)[number];

export const isAdminRole = (role: Role | undefined | null): boolean =>
  role === "admin" || role === "superadmin";

/** A stored key validated this recently is trusted without a server call. */
export const AUTH_REVALIDATE_MS = 24 * 60 * 60 * 1000;

export const TOAST_DURATION_MS = { error: 4000, success: 2000, blank: 4000 } as const;
export const TOAST_LIMIT = 20;

/** Access keys: readable prefix + 32 random bytes (256 bits) in base64url. */
export const ACCESS_KEY_PREFIX = "lbk_";
export const ACCESS_KEY_DISPLAY_CHARS = 6;

export const FREE_KEY_AUTO_CONTINUE_MS = 2000;

export const SOCKET_RECONNECT = {
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  randomizationFactor: 0.5,
  timeout: 20_000,
} as const;

export const LAUNCH_FEE_BNB = "0.5";
export const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;
