import { pageNumbers } from "../../lib/pagination.ts";

export interface PaginationProps {
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  label?: string;
}

/** [prev] 1 2 3 [next]; hidden when everything fits on one page. */
export function Pagination({ page, pageCount, onPageChange, label = "Pages" }: PaginationProps) {
  if (pageCount <= 1) return null;
  const control =
    "px-2 py-1 text-dim hover:text-accent disabled:text-faint disabled:cursor-not-allowed";
  return (
    <nav aria-label={label} className="mt-8 flex flex-wrap items-center justify-center gap-1">
      <button
        type="button"
        className={control}
        disabled={page <= 1}
        onClick={() => onPageChange(page - 1)}
      >
        [prev]
      </button>
      {pageNumbers(pageCount).map((n) => (
        <button
          key={n}
          type="button"
          aria-label={`Page ${n}`}
          aria-current={n === page ? "page" : undefined}
          className={
            n === page ? "rounded-sm bg-accent-soft px-2 py-1 font-semibold text-accent" : control
          }
          onClick={() => onPageChange(n)}
        >
          {n}
        </button>
      ))}
      <button
        type="button"
        className={control}
        disabled={page >= pageCount}
        onClick={() => onPageChange(page + 1)}
      >
        [next]
      </button>
    </nav>
  );
}
