import type { DispersalRefund } from "@bundler/shared";
import { RefundList } from "../../../components/ui/refund-list.tsx";

const KIND_LABELS: Record<DispersalRefund["kind"], string> = { refund: "Refund", return: "Return" };

/** BNB the dispersal sent back: payments not owed (refunds) and stuck chains' amounts (returns). */
export function DispersalRefunds({
  refunds,
  explorerUrl,
}: {
  refunds: readonly DispersalRefund[];
  explorerUrl: string | null;
}) {
  return (
    <RefundList
      title="Refunds and returns"
      refunds={refunds.map((refund) => ({ ...refund, label: KIND_LABELS[refund.kind] }))}
      explorerUrl={explorerUrl}
      data-testid="dispersal-refunds"
    />
  );
}
