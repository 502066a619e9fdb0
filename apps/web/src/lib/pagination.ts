export interface Page<T> {
  items: T[];
  /** The page shown, 1-based, clamped into [1, pageCount]. */
  page: number;
  /** At least 1, so an empty list still has a page to stand on. */
  pageCount: number;
  /** 1-based positions of the first and last item shown; 0 and 0 when empty. */
  from: number;
  to: number;
  total: number;
}

/**
 * Cuts one page out of a list; a page out of range falls back to the nearest real one
 * (e.g. after deleting the last item of the last page).
 *
 * @example
 * paginate([1, 2, 3, 4], 2, 3); // { items: [4], page: 2, pageCount: 2, from: 4, to: 4, total: 4 }
 */
export function paginate<T>(items: readonly T[], page: number, perPage: number): Page<T> {
  const size = Math.max(1, Math.floor(perPage));
  const pageCount = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(pageCount, Math.max(1, Math.floor(Number.isFinite(page) ? page : 1)));
  const start = (current - 1) * size;
  const slice = items.slice(start, start + size);
  return {
    items: slice,
    page: current,
    pageCount,
    from: slice.length > 0 ? start + 1 : 0,
    to: start + slice.length,
    total: items.length,
  };
}

/** Every page number, 1..pageCount. */
export const pageNumbers = (pageCount: number): number[] =>
  Array.from({ length: Math.max(0, pageCount) }, (_, index) => index + 1);

/**
 * Where a page the server cut sits in the whole list, for "Showing from-to of total" and the
 * page buttons.
 *
 * @example
 * pageRange({ page: 2, pageSize: 9, total: 11, shown: 2 }); // { from: 10, to: 11, pageCount: 2 }
 */
export function pageRange({
  page,
  pageSize,
  total,
  shown,
}: {
  page: number;
  pageSize: number;
  total: number;
  shown: number;
}): { from: number; to: number; pageCount: number } {
  const size = Math.max(1, pageSize);
  const start = (page - 1) * size;
  return {
    from: shown > 0 ? start + 1 : 0,
    to: start + shown,
    pageCount: Math.max(1, Math.ceil(total / size)),
  };
}

/** A `?page=` value as a page number: a whole number from 1, else 1. */
export const pageFromParam = (value: string | null): number => {
  const page = Number(value);
  return /^\d+$/.test(value ?? "") && Number.isSafeInteger(page) && page >= 1 ? page : 1;
};
