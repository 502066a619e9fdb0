import { type Bumper, type BumperTab, plural } from "@bundler/shared";
import { useState } from "react";
import { Pagination } from "../../../components/ui/pagination.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { formatBnb } from "../../../lib/bnb.ts";
import { shortAddress } from "../../../lib/short-address.ts";
import { useBumpers } from "../api/get-bumpers.ts";
import { bumperFailure } from "../utils/bumper-messages.ts";

const EMPTY: Record<BumperTab, string> = {
  active: "No active bumpers found.",
  completed: "No completed bumpers yet.",
};

const STATUS_LABEL: Record<Bumper["status"], string> = {
  ready: "needs funding",
  active: "running",
  stopped: "stopped",
  completed: "completed",
};

/**
 * The user's bumpers under two tabs, a page at a time from the server: Active (generated or
 * running) and Completed (stopped, by the user or by itself, or done).
 */
export function BumperList({
  selectedId,
  onSelect,
  refetchInterval,
}: {
  selectedId: string | null;
  onSelect: (bumper: Bumper) => void;
  /** Polls while the selected bumper runs, so the tabs' counts follow it. */
  refetchInterval: number | false;
}) {
  const [tab, setTab] = useState<BumperTab>("active");
  const [page, setPage] = useState(1);
  const list = useBumpers({ tab, page }, refetchInterval);
  const counts = list.data?.counts ?? { active: 0, completed: 0 };
  const shown = list.data?.bumpers ?? [];
  const pages = list.data?.pagination.pages ?? 0;
  const tabButton = (name: BumperTab, label: string) => (
    <button
      type="button"
      role="tab"
      aria-selected={tab === name}
      onClick={() => {
        setTab(name);
        setPage(1);
      }}
      className={`border-b-2 px-2 py-1 ${tab === name ? "border-accent text-accent" : "border-transparent text-dim hover:text-fg"}`}
    >
      {label} ({counts[name]})
    </button>
  );
  if (list.isError)
    return (
      <p role="alert" className="text-sm text-bad">
        {bumperFailure(list.error, "load bumpers")}
      </p>
    );
  if (list.isPending) return <p className="text-sm text-dim">loading bumpers...</p>;
  return (
    <Section title="Your Bumpers">
      <div role="tablist" className="flex gap-2 text-sm">
        {tabButton("active", "Active")}
        {tabButton("completed", "Completed")}
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
                onClick={() => onSelect(bumper)}
                className={`flex w-full flex-wrap items-center justify-between gap-2 rounded-sm border px-3 py-2 text-left text-xs ${bumper.id === selectedId ? "border-accent bg-accent-soft" : "border-line hover:border-line-strong"}`}
              >
                <span className="text-fg" title={bumper.targetToken}>
                  {shortAddress(bumper.targetToken)}
                </span>
                <span className="text-dim">
                  {bumper.bumpsCompleted}/{plural(bumper.totalBumps, "bump")} ·{" "}
                  {formatBnb(bumper.balance)} BNB
                </span>
                <span className={bumper.active ? "text-ok" : "text-faint"}>
                  {STATUS_LABEL[bumper.status]}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} pageCount={pages} onPageChange={setPage} label="Bumper pages" />
    </Section>
  );
}
