import { Section } from "../../../components/ui/section.tsx";
import { formatBnb } from "../../../lib/bnb.ts";
import type { DispersalSummary as Summary } from "../utils/dispersal-form.ts";

/** How many wallets get paid and how much BNB they receive in all (buffers included). */
export function DispersalSummary({ summary }: { summary: Summary }) {
  return (
    <Section title="Summary">
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1">
        <dt className="text-dim">Total wallets</dt>
        <dd className="text-right tabular-nums text-fg" data-testid="summary-wallets">
          {summary.wallets}
        </dd>
        <dt className="font-semibold text-fg">Total amount</dt>
        <dd
          className="text-right font-semibold tabular-nums text-accent"
          data-testid="summary-total"
        >
          {formatBnb(summary.total)} BNB
        </dd>
      </dl>
      <p className="text-xs text-faint">
        Each wallet receives its amount plus the buffer. The dispersal asks for this total plus the
        gas of every transfer.
      </p>
    </Section>
  );
}
