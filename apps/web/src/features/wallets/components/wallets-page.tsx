import { Link } from "react-router";
import { ContentLayout } from "../../../components/layouts/content-layout.tsx";
import { CardSkeletons } from "../../../components/ui/card-skeletons.tsx";
import { LoadProblem } from "../../../components/ui/load-problem.tsx";
import { Pagination } from "../../../components/ui/pagination.tsx";
import { usePageParam, useServerPageRange } from "../../../hooks/use-page-param.ts";
import { failureText } from "../../../lib/api-error.ts";
import { useBundles } from "../api/get-bundles.ts";
import { WALLETS_MESSAGES } from "../utils/wallet-messages.ts";
import { BuilderStatsPanel } from "./builder-stats-panel.tsx";
import { BundleCard } from "./bundle-card.tsx";

/** `/wallets`: the caller's launched tokens, 9 a page, each opening its wallets. */
export function WalletsPage() {
  const [page, setPage] = usePageParam();
  const bundles = useBundles(page);
  const list = bundles.data;

  const range = useServerPageRange(
    list,
    list?.bundles.length ?? 0,
    bundles.isPlaceholderData,
    setPage,
  );

  return (
    <ContentLayout title="Wallet Manager">
      <div className="mb-4 flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-lg font-semibold text-fg">Your Token Bundles</h2>
        {list && range && list.total > 0 && (
          <p className="text-xs text-faint" data-testid="bundles-range">
            Showing {range.from}-{range.to} of {list.total}
          </p>
        )}
      </div>

      {bundles.isPending && <CardSkeletons label="loading bundles" testId="bundle-skeleton" />}

      {bundles.isError && !list && (
        <LoadProblem
          message={failureText(bundles.error, "Failed to load bundles")}
          onRetry={() => void bundles.refetch()}
        />
      )}

      {list && list.total === 0 && (
        <div
          className="flex flex-col items-center gap-4 py-16 text-center"
          data-testid="bundles-empty"
        >
          <p className="text-dim">{WALLETS_MESSAGES.noTokens}</p>
          <Link to="/" className="text-accent hover:underline">
            [go to the bundler]
          </Link>
        </div>
      )}

      {list && range && list.bundles.length > 0 && (
        <>
          <div
            className={`grid gap-4 sm:grid-cols-2 lg:grid-cols-3 ${bundles.isPlaceholderData ? "opacity-60" : ""}`}
            aria-busy={bundles.isPlaceholderData}
            data-testid="bundles-grid"
          >
            {list.bundles.map((bundle) => (
              <BundleCard key={bundle.address} bundle={bundle} />
            ))}
          </div>
          <Pagination
            page={list.page}
            pageCount={range.pageCount}
            onPageChange={(next) => setPage(next)}
            label="Bundle pages"
          />
        </>
      )}
      <BuilderStatsPanel />
    </ContentLayout>
  );
}
