import type { NewsItem } from "@bundler/shared";

/** localStorage key holding a JSON array of dismissed news ids (SPEC §2). */
export const DISMISSED_NEWS_KEY = "dismissedNewsIds";

/** News the user has not dismissed, in the server's order. */
export function visibleNews(
  items: readonly NewsItem[],
  dismissedIds: readonly string[],
): NewsItem[] {
  const dismissed = new Set(dismissedIds);
  return items.filter((item) => !dismissed.has(item.id));
}

/** Reads the stored ids; anything unreadable counts as nothing dismissed. */
export function parseDismissedIds(raw: string | null): string[] {
  if (raw === null) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === "string") : [];
  } catch {
    return [];
  }
}

/** Adds an id once; the list stays serialisable as the JSON array the spec names. */
export function withDismissed(dismissedIds: readonly string[], id: string): string[] {
  return dismissedIds.includes(id) ? [...dismissedIds] : [...dismissedIds, id];
}
