import { ADDRESS_PATTERN } from "@bundler/shared";
import { Link, useParams } from "react-router";
import { ContentLayout } from "../../../components/layouts/content-layout.tsx";
import { LoadProblem } from "../../../components/ui/load-problem.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { ApiError, failureText } from "../../../lib/api-error.ts";
import { usePublicConfig } from "../../../lib/public-config.ts";
import { useBundleBalances } from "../api/get-bundle-balances.ts";
import { useRefetchOnFocus } from "../hooks/use-refetch-on-focus.ts";
import { BundleManager } from "./bundle-manager.tsx";

function Problem({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <LoadProblem message={message} onRetry={onRetry}>
      <Link to="/wallets" className="text-dim hover:text-accent">
        [back]
      </Link>
    </LoadProblem>
  );
}

/** `/wallets/{address}`: one bundle's wallets, its sells and empties. Survives a reload. */
export function BundleDetailPage() {
  const { address = "" } = useParams();
  const valid = ADDRESS_PATTERN.test(address);
  return (
    <ContentLayout title="Wallet Manager">
      {valid ? <BundleDetail address={address} /> : <Problem message="Not a token address." />}
    </ContentLayout>
  );
}

function BundleDetail({ address }: { address: string }) {
  const balances = useBundleBalances(address);
  // Not while a read is on its way: that one answers the same.
  useRefetchOnFocus(() => void balances.refetch({ cancelRefetch: false }));
  const explorerUrl = usePublicConfig().data?.explorerUrl ?? null;

  if (balances.isPending) {
    return (
      <p className="flex items-center gap-2 text-dim" role="status">
        <Spinner /> reading the bundle's wallets...
      </p>
    );
  }
  if (balances.isError) {
    const notFound = balances.error instanceof ApiError && balances.error.status === 404;
    return (
      <Problem
        message={
          notFound
            ? "No bundle of yours launched this token."
            : failureText(balances.error, "Failed to load the bundle")
        }
        onRetry={notFound ? undefined : () => void balances.refetch()}
      />
    );
  }
  return <BundleManager data={balances.data} explorerUrl={explorerUrl} />;
}
