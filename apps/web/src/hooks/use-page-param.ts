import { useCallback } from "react";
import { useSearchParams } from "react-router";
import { pageFromParam } from "../lib/pagination.ts";

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
