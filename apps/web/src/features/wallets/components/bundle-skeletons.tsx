/** Three card-shaped placeholders while the first page of bundles loads. */
export function BundleSkeletons() {
  return (
    <output aria-label="loading bundles" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {[0, 1, 2].map((n) => (
        <div
          key={n}
          data-testid="bundle-skeleton"
          className="flex h-36 animate-pulse flex-col gap-4 rounded-md border border-line bg-panel p-4"
        >
          <div className="flex items-start gap-3">
            <div className="size-14 shrink-0 rounded-sm bg-raised" />
            <div className="flex flex-1 flex-col gap-2 pt-1">
              <div className="h-3 w-1/3 rounded-sm bg-raised" />
              <div className="h-3 w-2/3 rounded-sm bg-raised" />
            </div>
          </div>
          <div className="mt-auto h-4 rounded-sm bg-raised" />
        </div>
      ))}
    </output>
  );
}
