import { useCallback, useEffect } from "react";
import { useSearchParams } from "react-router";
import { pageFromParam, pageRange } from "../lib/pagination.ts";

/**
 * The page shown, kept in the URL (`?page=2`; none for page 1), so a reload or a shared link
 * opens the same page and the browser's back button returns to the previous one.
 */
export function usePageParam() {
  const [params, setParams] = useSearchParams();
  const page = pageFromParam(params.get("page"));
  const setPage = useCallback(
    (next: number, { replace = false }: { replace?: boolean } = {}) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (next > 1) updated.set("page", String(next));
          else updated.delete("page");
          return updated;
        },
        { replace },
      ),
    [setParams],
  );
  return [page, setPage] as const;
}

/**
 * "Showing x-y of n" for a list the server pages, and the way back from past its end (its last
 * item deleted, an old link): there the last real page replaces the one in the URL.
 */
export function useServerPageRange(
  list: { page: number; pageSize: number; total: number } | undefined,
  shown: number,
  isPlaceholderData: boolean,
  setPage: ReturnType<typeof usePageParam>[1],
) {
  const range = list
    ? pageRange({ page: list.page, pageSize: list.pageSize, total: list.total, shown })
    : null;
  const pastEnd = list !== undefined && !isPlaceholderData && shown === 0 && list.page > 1;
  const lastPage = range?.pageCount ?? 1;
  useEffect(() => {
    if (pastEnd) setPage(lastPage, { replace: true });
  }, [pastEnd, lastPage, setPage]);
  return range;
}
