import { useCallback, useState } from "react";
import { DISMISSED_NEWS_KEY, parseDismissedIds, withDismissed } from "../utils/dismissed-news.ts";

function readStored(): string[] {
  try {
    return parseDismissedIds(localStorage.getItem(DISMISSED_NEWS_KEY));
  } catch {
    return [];
  }
}

/** The dismissed news ids, remembered in localStorage. */
export function useDismissedNews() {
  const [dismissedIds, setDismissedIds] = useState(readStored);

  const dismiss = useCallback((id: string) => {
    setDismissedIds((current) => {
      const next = withDismissed(current, id);
      try {
        localStorage.setItem(DISMISSED_NEWS_KEY, JSON.stringify(next));
      } catch {
        // Storage full or blocked: the item stays hidden for this visit only.
      }
      return next;
    });
  }, []);

  return { dismissedIds, dismiss };
}
