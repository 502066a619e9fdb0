import type { NewsItem } from "@bundler/shared";
import { useNews } from "../api/get-news.ts";
import { useDismissedNews } from "../hooks/use-dismissed-news.ts";
import { visibleNews } from "../utils/dismissed-news.ts";

const formatDate = (date: string) => {
  const parsed = new Date(date);
  return Number.isNaN(parsed.getTime())
    ? date
    : parsed.toLocaleDateString(undefined, { month: "short", day: "numeric", year: "numeric" });
};

function NewsRow({ item, onDismiss }: { item: NewsItem; onDismiss: () => void }) {
  return (
    <li className="flex items-start gap-3 px-4 py-2">
      <span
        className="mt-0.5 shrink-0 rounded-sm border px-1.5 text-[11px] uppercase leading-5 tracking-wider"
        style={{
          color: item.labelColor,
          borderColor: item.labelColor,
          backgroundColor: `color-mix(in srgb, ${item.labelColor} 14%, transparent)`,
        }}
      >
        {item.label}
      </span>
      <p className="min-w-0 flex-1 break-words text-fg">{item.content}</p>
      <time className="hidden shrink-0 text-xs leading-6 text-faint sm:block" dateTime={item.date}>
        {formatDate(item.date)}
      </time>
      <button
        type="button"
        onClick={onDismiss}
        aria-label="Dismiss news"
        className="shrink-0 px-1 text-lg leading-6 text-faint hover:text-accent"
      >
        ×
      </button>
    </li>
  );
}

/** News from the server on top of every page; each item can be dismissed for good. */
export function NewsBanner() {
  const news = useNews();
  const { dismissedIds, dismiss } = useDismissedNews();
  const items = visibleNews(news.data ?? [], dismissedIds);
  if (items.length === 0) return null;

  return (
    <section aria-label="News" className="border-b border-line bg-panel/80">
      <ul className="mx-auto w-full max-w-6xl divide-y divide-line text-sm">
        {items.map((item) => (
          <NewsRow key={item.id} item={item} onDismiss={() => dismiss(item.id)} />
        ))}
      </ul>
    </section>
  );
}
