import type { Transaction } from "@bundler/shared";
import type { ReactNode } from "react";
import { useParams } from "react-router";
import { ContentLayout } from "../../../components/layouts/content-layout.tsx";
import { CopyField } from "../../../components/ui/copy-field.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { failureText } from "../../../lib/api-error.ts";
import { formatBnb } from "../../../lib/bnb.ts";
import { useTransaction } from "../api/get-transaction.ts";

const STATUS_TONES: Record<Transaction["status"], string> = {
  success: "text-ok",
  failed: "text-bad",
  error: "text-bad",
  pending: "text-accent",
};

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[8rem_1fr]">
      <dt className="text-faint">{label}</dt>
      <dd className="min-w-0 break-all text-fg">{children}</dd>
    </div>
  );
}

/**
 * `/tx/{hash}`: one transaction as the chain knows it. Hashes link here on a chain without a
 * block explorer (the local chain); it polls every 3 s while the transaction is pending.
 */
export function TxPage() {
  const { hash = "" } = useParams();
  const query = useTransaction(hash);
  const tx = query.data?.transaction;
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
            <Row label="Status">
              <span className={STATUS_TONES[tx.status]} data-testid="tx-status">
                {tx.status}
              </span>
              {tx.status === "pending" && <Spinner />}
            </Row>
            {tx.reason && <Row label="Reason">{tx.reason}</Row>}
            <Row label="Block">{tx.blockNumber ?? "not mined yet"}</Row>
            {tx.timestamp && <Row label="Time">{new Date(tx.timestamp).toLocaleString()}</Row>}
            <Row label="From">{tx.from}</Row>
            <Row label="To">{tx.to ?? "contract creation"}</Row>
            <Row label="Value">
              <span title={`${tx.value} BNB`}>{formatBnb(tx.value)} BNB</span>
            </Row>
            {tx.fee && (
              <Row label="Gas fee">
                <span title={`${tx.fee} BNB`}>{formatBnb(tx.fee)} BNB</span>
              </Row>
            )}
            <Row label="Nonce">{tx.nonce}</Row>
          </dl>
        )}
      </Section>
    </ContentLayout>
  );
}
