import toast from "react-hot-toast";
import { copyText } from "../../lib/clipboard.ts";

export interface CopyFieldProps {
  label: string;
  value: string;
  /** What the copy button is called for screen readers, e.g. "Copy payment address". */
  copyLabel: string;
  /** The confirmation toast, "Copied to clipboard!" unless told. */
  copiedMessage?: string;
  "data-testid"?: string;
}

/** A labelled value with a [copy] button; toasts "Copied to clipboard!" (or `copiedMessage`). */
export function CopyField({
  label,
  value,
  copyLabel,
  copiedMessage = "Copied to clipboard!",
  "data-testid": testId,
}: CopyFieldProps) {
  const copy = async () => {
    if (await copyText(value)) toast.success(copiedMessage);
  };
  return (
    <div className="flex flex-col gap-1">
      <span className="text-xs text-faint">{label}</span>
      <div className="flex items-stretch gap-2">
        <code
          data-testid={testId}
          className="min-w-0 flex-1 break-all rounded-sm border border-line-strong bg-ink px-3 py-2 text-fg"
        >
          {value}
        </code>
        <button
          type="button"
          onClick={copy}
          aria-label={copyLabel}
          className="shrink-0 rounded-sm border border-line-strong bg-raised px-3 text-dim hover:border-accent hover:text-accent"
        >
          [copy]
        </button>
      </div>
    </div>
  );
}
