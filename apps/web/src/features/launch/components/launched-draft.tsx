import type { Draft } from "@bundler/shared";
import { Link } from "react-router";
import { ContentLayout } from "../../../components/layouts/content-layout.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { explorerAddressUrl } from "../../../lib/explorer-links.ts";

const linkClass = "text-dim hover:text-accent";

function TokenLinks({
  launch,
  explorerUrl,
}: {
  launch: NonNullable<Draft["launch"]>;
  explorerUrl: string | null;
}) {
  const token = launch.tokenAddress;
  return (
    <nav aria-label="Token links" className="flex flex-wrap gap-x-4 gap-y-1">
      <a
        href={explorerAddressUrl(explorerUrl, token, "token")}
        target="_blank"
        rel="noreferrer"
        className={linkClass}
      >
        {explorerUrl ? "[explorer]" : "[address page]"}
      </a>
      {launch.launchpadUrl && (
        <a href={launch.launchpadUrl} target="_blank" rel="noreferrer" className={linkClass}>
          [launchpad page]
        </a>
      )}
      <Link to={`/wallets/${encodeURIComponent(token)}`} className="text-accent hover:underline">
        [open in wallet manager]
      </Link>
    </nav>
  );
}

/**
 * A draft that launched (or is launching), opened from `/create?draft={id}`: read-only, since
 * it can no longer change. Where it launched, the token's links and the way to its wallets;
 * no "Update Draft", no funding buttons.
 */
export function LaunchedDraft({
  draft,
  explorerUrl,
}: {
  draft: Draft;
  explorerUrl: string | null;
}) {
  const { tokenInfo, launch, walletConfig } = draft;
  return (
    <ContentLayout title={`${tokenInfo.name} ($${tokenInfo.symbol})`}>
      <Link to="/drafts" className="mb-4 inline-block text-dim hover:text-accent">
        [back to drafts]
      </Link>
      <div className="flex max-w-3xl flex-col gap-6" data-testid="launched-draft">
        <Section title={launch ? "Launched" : "Launching"}>
          {launch ? (
            <>
              <p className="text-ok" data-testid="launched-block">
                Launched in block {launch.blockNumber}
              </p>
              <p className="break-all text-xs text-dim">
                token <code className="text-fg">{launch.tokenAddress}</code>
              </p>
              <p className="text-xs text-dim">
                {launch.atomicWallets} of {launch.totalWallets} bundle wallets bought in the launch
                block.
              </p>
              <TokenLinks launch={launch} explorerUrl={explorerUrl} />
            </>
          ) : (
            <p className="text-accent">
              This draft is being launched right now. Follow it from{" "}
              <Link to="/drafts" className="underline">
                my drafts
              </Link>
              .
            </p>
          )}
          <p className="text-xs text-faint">
            A launched draft is kept as it was: it cannot be changed.
          </p>
        </Section>
        <Section title="Token Info">
          <dl className="grid grid-cols-[8rem_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-dim">Name</dt>
            <dd>{tokenInfo.name}</dd>
            <dt className="text-dim">Ticker</dt>
            <dd>{tokenInfo.symbol}</dd>
            <dt className="text-dim">Description</dt>
            <dd className="whitespace-pre-wrap break-words">{tokenInfo.description}</dd>
            <dt className="text-dim">Bundle wallets</dt>
            <dd>{walletConfig.wallets.length}</dd>
          </dl>
          {tokenInfo.image && (
            <img
              src={tokenInfo.image}
              alt="Token logo"
              className="size-20 rounded-sm object-cover"
            />
          )}
        </Section>
      </div>
    </ContentLayout>
  );
}
