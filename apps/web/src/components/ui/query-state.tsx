import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { failureText } from "../../lib/api-error.ts";
import { LoadProblem } from "./load-problem.tsx";
import { Spinner } from "./spinner.tsx";

/**
 * A query's three faces in a panel: a spinner line saying what is read while it loads, its
 * failure (the words given, then the server's reason) with [retry], or `children` of its data.
 *
 * @example
 * <QueryState query={pnl} loading="reading the bundle's ledger..." failure="Failed to load the bundle's P&L">
 *   {(data) => <PnlTotals totals={data.totals} />}
 * </QueryState>
 */
export function QueryState<T>({
  query,
  loading,
  failure,
  children,
}: {
  query: UseQueryResult<T>;
  loading: string;
  failure: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending)
    return (
      <p className="flex items-center gap-2 text-dim" role="status">
        <Spinner /> {loading}
      </p>
    );
  if (query.isError)
    return (
      <LoadProblem
        message={failureText(query.error, failure)}
        onRetry={() => void query.refetch()}
      />
    );
  return <>{children(query.data)}</>;
}
