import type { AdminUserRow } from "@bundler/shared";

/**
 * SPEC §2's user search, case-insensitive, over the page shown: a key by its prefix (the list
 * knows a key's first 6 characters only, so a whole key pasted in matches by its start too), or
 * a device id or role containing the text. Blank matches everyone.
 */
export function matchesUserSearch(user: AdminUserRow, search: string): boolean {
  const text = search.trim().toLowerCase();
  if (!text) return true;
  const key = user.key.toLowerCase();
  return (
    key.startsWith(text) ||
    (text.length > key.length && text.startsWith(key)) ||
    (user.deviceId?.toLowerCase().includes(text) ?? false) ||
    user.role.includes(text)
  );
}
