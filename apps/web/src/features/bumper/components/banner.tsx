export type BannerMessage = { kind: "error" | "success"; text: string };

/** The outcome of the last thing the user did on the page, until dismissed or replaced. */
export function Banner({ message, onDismiss }: { message: BannerMessage; onDismiss: () => void }) {
  const error = message.kind === "error";
  return (
    <div
      role={error ? "alert" : "status"}
      data-testid={`${message.kind}-banner`}
      className={`flex items-start justify-between gap-3 rounded-sm border px-4 py-3 text-sm ${error ? "border-bad/60 bg-bad/10 text-bad" : "border-ok/60 bg-ok/10 text-ok"}`}
    >
      <span className="whitespace-pre-line">{message.text}</span>
      <button type="button" className="text-dim hover:text-fg" onClick={onDismiss}>
        [dismiss]
      </button>
    </div>
  );
}
