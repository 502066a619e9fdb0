import type { Bumper } from "@bundler/shared";
import { useState } from "react";
import { Section } from "../../../components/ui/section.tsx";
import { formatBnb } from "../../../lib/bnb.ts";
import { shortAddress } from "../../../lib/short-address.ts";
import { isCompleted } from "../utils/bumper-messages.ts";

type Tab = "active" | "completed";

const EMPTY: Record<Tab, string> = {
  active: "No active bumpers found.",
  completed: "No completed bumpers yet.",
};

const STATUS_LABEL: Record<Bumper["status"], string> = {
  ready: "needs funding",
  active: "running",
  stopped: "stopped",
  completed: "completed",
};

/** The user's bumpers under two tabs: Completed (status completed) and Active (every other). */
export function BumperList({
  bumpers,
  selectedId,
  onSelect,
}: {
  bumpers: Bumper[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  const [tab, setTab] = useState<Tab>("active");
  const completed = bumpers.filter(isCompleted);
  const active = bumpers.filter((bumper) => !isCompleted(bumper));
  const shown = tab === "active" ? active : completed;
  const tabButton = (name: Tab, label: string, count: number) => (
    <button
      type="button"
      role="tab"
      aria-selected={tab === name}
      onClick={() => setTab(name)}
      className={`border-b-2 px-2 py-1 ${tab === name ? "border-accent text-accent" : "border-transparent text-dim hover:text-fg"}`}
    >
      {label} ({count})
    </button>
  );
  return (
    <Section title="Your Bumpers">
      <div role="tablist" className="flex gap-2 text-sm">
        {tabButton("active", "Active", active.length)}
        {tabButton("completed", "Completed", completed.length)}
      </div>
      {shown.length === 0 ? (
        <p className="text-sm text-dim">{EMPTY[tab]}</p>
      ) : (
        <ul role="tabpanel" className="flex flex-col gap-2">
          {shown.map((bumper) => (
            <li key={bumper.id}>
              <button
                type="button"
                data-testid="bumper-row"
                aria-pressed={bumper.id === selectedId}
                onClick={() => onSelect(bumper.id)}
                className={`flex w-full flex-wrap items-center justify-between gap-2 rounded-sm border px-3 py-2 text-left text-xs ${bumper.id === selectedId ? "border-accent bg-accent-soft" : "border-line hover:border-line-strong"}`}
              >
                <span className="text-fg" title={bumper.targetToken}>
                  {shortAddress(bumper.targetToken)}
                </span>
                <span className="text-dim">
                  {bumper.bumpsCompleted}/{bumper.totalBumps} bumps · {formatBnb(bumper.balance)}{" "}
                  BNB
                </span>
                <span className={bumper.active ? "text-ok" : "text-faint"}>
                  {STATUS_LABEL[bumper.status]}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
