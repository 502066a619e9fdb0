import type { Transaction } from "@bundler/shared";
import { useParams } from "react-router";
import { ContentLayout } from "../../../components/layouts/content-layout.tsx";
import { AddressLink } from "../../../components/ui/address-link.tsx";
import { CopyField } from "../../../components/ui/copy-field.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { failureText } from "../../../lib/api-error.ts";
import { formatBnb } from "../../../lib/bnb.ts";
import { usePublicConfig } from "../../../lib/public-config.ts";
import { useTransaction } from "../api/get-transaction.ts";
import { DetailRow } from "./detail-row.tsx";

const STATUS_TONES: Record<Transaction["status"], string> = {
  success: "text-ok",
  failed: "text-bad",
  error: "text-bad",
  pending: "text-accent",
};

/**
 * `/tx/{hash}`: one transaction as the chain knows it. Hashes link here on a chain without a
 * block explorer (the local chain); it polls every 3 s while the transaction is pending.
 */
export function TxPage() {
  const { hash = "" } = useParams();
  const query = useTransaction(hash);
  const tx = query.data?.transaction;
  const explorerUrl = usePublicConfig().data?.explorerUrl ?? null;
  return (
    <ContentLayout title="Transaction">
      <Section title="Transaction">
        <CopyField label="Hash" value={hash} copyLabel="Copy transaction hash" />
        {query.isPending && (
          <p className="flex items-center gap-2 text-dim">
            <Spinner /> reading the transaction...
          </p>
        )}
        {query.isError && (
          <p role="alert" className="text-bad">
            {failureText(query.error, "Failed to load the transaction")}
          </p>
        )}
        {tx && (
          <dl className="flex flex-col gap-2 text-sm" data-testid="transaction">
            <DetailRow label="Status">
              <span className={STATUS_TONES[tx.status]} data-testid="tx-status">
                {tx.status}
              </span>
              {tx.status === "pending" && <Spinner />}
            </DetailRow>
            {tx.reason && <DetailRow label="Reason">{tx.reason}</DetailRow>}
            <DetailRow label="Block">{tx.blockNumber ?? "not mined yet"}</DetailRow>
            {tx.timestamp && (
              <DetailRow label="Time">{new Date(tx.timestamp).toLocaleString()}</DetailRow>
            )}
            <DetailRow label="From">
              <AddressLink address={tx.from} explorerUrl={explorerUrl} inPlace />
            </DetailRow>
            <DetailRow label="To">
              {tx.to ? (
                <AddressLink address={tx.to} explorerUrl={explorerUrl} inPlace />
              ) : (
                "contract creation"
              )}
            </DetailRow>
            <DetailRow label="Value">
              <span title={`${tx.value} BNB`}>{formatBnb(tx.value)} BNB</span>
            </DetailRow>
            {tx.fee && (
              <DetailRow label="Gas fee">
                <span title={`${tx.fee} BNB`}>{formatBnb(tx.fee)} BNB</span>
              </DetailRow>
            )}
            <DetailRow label="Nonce">{tx.nonce}</DetailRow>
          </dl>
        )}
      </Section>
    </ContentLayout>
  );
}
