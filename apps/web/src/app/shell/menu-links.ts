export interface MenuLink {
  label: string;
  to: string;
  adminOnly?: boolean;
}

/** The menu of SPEC §2, in order. */
export const MENU_LINKS: readonly MenuLink[] = [
  { label: "[bundler]", to: "/" },
  { label: "[my drafts]", to: "/drafts" },
  { label: "[wallet manager]", to: "/wallets" },
  { label: "[disperser]", to: "/disperser" },
  { label: "[other tools]", to: "/tools" },
  { label: "[admin]", to: "/admin", adminOnly: true },
];

/** Beside [logout], for a logged-in user: the referral program and the account. */
export const SESSION_LINKS: readonly MenuLink[] = [
  { label: "[referral]", to: "/referral" },
  { label: "[account]", to: "/account" },
];

/** What [logout] asks first: a key nobody saved cannot be typed back in. */
export const LOGOUT_QUESTION =
  "Are you sure? Save your key first: without it this account cannot be reached again.";

/**
 * A link is active when the path equals it or lies under it (/tools/bumper is under /tools).
 * "/" would lie over everything, so it is active only on "/" and on "/create".
 */
export function isMenuLinkActive(pathname: string, linkPath: string): boolean {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (linkPath === "/") return path === "/" || path === "/create";
  return path === linkPath || path.startsWith(`${linkPath}/`);
}
