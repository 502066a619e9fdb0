import type { Bumper } from "@bundler/shared";
import type { ReactNode } from "react";
import { Section } from "../../../components/ui/section.tsx";
import { useNow } from "../../../hooks/use-now.ts";
import { formatBnb } from "../../../lib/bnb.ts";
import { countdownText } from "../utils/countdown.ts";

const usd = (bnb: string, price: number) =>
  (Number(bnb) * price).toLocaleString("en-US", { style: "currency", currency: "USD" });

function Stat({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1 rounded-sm border border-line bg-ink px-3 py-2">
      <span className="text-xs uppercase tracking-wide text-faint">{label}</span>
      <span className="tabular-nums text-fg" data-testid={testId}>
        {children}
      </span>
    </div>
  );
}

/** Bumps made, the next one's countdown (live each second while running), gas and volume. */
export function BumperStats({ bumper, bnbPrice }: { bumper: Bumper; bnbPrice: number }) {
  const now = useNow(1_000, bumper.active);
  const next = bumper.active ? countdownText(bumper.nextBumpAt, now) : null;
  return (
    <Section title="Stats">
      <div className="grid gap-3 sm:grid-cols-2">
        <Stat label="Bumps" testId="stat-bumps">
          {bumper.bumpsCompleted} / {bumper.totalBumps}
        </Stat>
        <Stat label="Next bump in" testId="stat-next">
          {next ?? "—"}
        </Stat>
        <Stat label="BNB spent on gas" testId="stat-gas">
          {formatBnb(bumper.gasSpent)} BNB
        </Stat>
        <Stat label="Volume generated" testId="stat-volume">
          {formatBnb(bumper.volume)} BNB{" "}
          <span className="text-dim">≈ {usd(bumper.volume, bnbPrice)}</span>
        </Stat>
      </div>
    </Section>
  );
}
