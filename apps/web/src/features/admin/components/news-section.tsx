import type { AdminNewsItem, NewsInput } from "@bundler/shared";
import { useState } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/button.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { formatDateTime } from "../../../lib/format-date.ts";
import { type NewsChange, useAdminNews, useChangeNews } from "../api/admin-news.ts";
import { failureWithReason } from "../utils/admin-messages.ts";
import { NewsForm } from "./news-form.tsx";

const FAILED: Record<NewsChange["kind"], string> = {
  publish: "Failed to publish the news",
  edit: "Failed to update the news",
  visibility: "Failed to change the news' visibility",
};

/** One item: its label, text and date, shown or hidden, with [edit] and [hide] / [show]. */
function NewsRow({
  item,
  busy,
  onChange,
}: {
  item: AdminNewsItem;
  busy: boolean;
  onChange: (change: NewsChange) => Promise<boolean>;
}) {
  const [editing, setEditing] = useState(false);
  if (editing)
    return (
      <li className="py-3" data-testid="news-row">
        <NewsForm
          initial={{ content: item.content, label: item.label, labelColor: item.labelColor }}
          submitLabel="[save]"
          busy={busy}
          onSubmit={async (input: NewsInput) => {
            const done = await onChange({ kind: "edit", id: item.id, input });
            if (done) setEditing(false);
            return done;
          }}
          onCancel={() => setEditing(false)}
        />
      </li>
    );
  return (
    <li className="flex flex-wrap items-start gap-3 py-3 text-sm" data-testid="news-row">
      <span
        className="rounded-sm border px-1.5 text-[11px] uppercase leading-5"
        style={{ color: item.labelColor, borderColor: item.labelColor }}
      >
        {item.label}
      </span>
      <p className={`min-w-0 flex-1 break-words ${item.active ? "text-fg" : "text-faint"}`}>
        {item.content}
      </p>
      <span className="text-xs text-faint">{formatDateTime(item.date)}</span>
      <span className={`text-xs ${item.active ? "text-ok" : "text-dim"}`}>
        {item.active ? "shown" : "hidden"}
      </span>
      <Button variant="bracket" onClick={() => setEditing(true)}>
        [edit]
      </Button>
      <Button
        variant="bracket"
        disabled={busy}
        onClick={() => void onChange({ kind: "visibility", id: item.id, active: !item.active })}
      >
        {item.active ? "[hide]" : "[show]"}
      </Button>
    </li>
  );
}

/**
 * The banner's news, managed from the dashboard: publish an item, edit one, hide it or show it
 * again. Every change is in the audit log.
 */
export function NewsSection() {
  const news = useAdminNews();
  const change = useChangeNews();
  const apply = async (next: NewsChange): Promise<boolean> => {
    try {
      const answer = await change.mutateAsync(next);
      toast.success(answer.message);
      return true;
    } catch (error) {
      toast.error(failureWithReason(error, FAILED[next.kind]));
      return false;
    }
  };
  return (
    <Section title="News">
      <NewsForm
        submitLabel="[publish]"
        busy={change.isPending}
        onSubmit={(input) => apply({ kind: "publish", input })}
      />
      {news.isPending && <p className="text-dim">loading news...</p>}
      {news.isError && <p className="text-bad">Failed to load the news</p>}
      {news.data &&
        (news.data.news.length === 0 ? (
          <p className="text-sm text-dim">No news yet.</p>
        ) : (
          <ul className="divide-y divide-line">
            {news.data.news.map((item) => (
              <NewsRow key={item.id} item={item} busy={change.isPending} onChange={apply} />
            ))}
          </ul>
        ))}
    </Section>
  );
}
