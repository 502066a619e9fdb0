/**
 * Three card-shaped placeholders while the first page of a card grid loads: an image, two
 * title lines and a footer, `tall` for cards with a line more (drafts) than others (bundles).
 */
export function CardSkeletons({
  label,
  testId,
  tall = false,
}: {
  /** What is loading, for screen readers: "loading drafts". */
  label: string;
  testId: string;
  tall?: boolean;
}) {
  return (
    <output aria-label={label} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {[0, 1, 2].map((n) => (
        <div
          key={n}
          data-testid={testId}
          className={`flex animate-pulse flex-col gap-4 rounded-md border border-line bg-panel p-4 ${tall ? "h-48" : "h-36"}`}
        >
          <div className="flex items-start gap-3">
            <div className="size-14 shrink-0 rounded-sm bg-raised" />
            <div className="flex flex-1 flex-col gap-2 pt-1">
              <div className="h-3 w-2/3 rounded-sm bg-raised" />
              <div className="h-3 w-1/3 rounded-sm bg-raised" />
            </div>
          </div>
          {tall && <div className="h-3 w-1/2 rounded-sm bg-raised" />}
          <div className={`mt-auto rounded-sm bg-raised ${tall ? "h-6" : "h-4"}`} />
        </div>
      ))}
    </output>
  );
}
