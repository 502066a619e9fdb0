import { useState } from "react";
import toast from "react-hot-toast";
import { IMAGE_MESSAGES, ImageError } from "../utils/compress-image.ts";
import { compressLogo } from "../utils/compress-image-browser.ts";

/** Picks a logo, compresses it in the browser and hands back the data URL. */
export function LogoInput({
  value,
  onChange,
}: {
  value: string;
  onChange: (dataUrl: string) => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const pick = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      onChange(await compressLogo(file));
    } catch (cause) {
      const message = cause instanceof ImageError ? cause.message : IMAGE_MESSAGES.compressFailed;
      setError(message);
      toast.error(message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex items-center gap-4">
      <div className="flex size-20 shrink-0 items-center justify-center overflow-hidden rounded-sm border border-dashed border-line-strong bg-ink">
        {value ? (
          <img src={value} alt="Token logo preview" className="size-full object-cover" />
        ) : (
          <span className="text-xs text-faint">no logo</span>
        )}
      </div>
      <div className="flex min-w-0 flex-col gap-1">
        <label className="cursor-pointer text-dim hover:text-accent">
          {busy ? "compressing..." : value ? "[change logo]" : "[upload logo]"}
          <input
            type="file"
            accept="image/*"
            aria-label="Logo"
            className="sr-only"
            disabled={busy}
            onChange={(event) => {
              void pick(event.target.files?.[0]);
              event.target.value = "";
            }}
          />
        </label>
        <span className="text-xs text-faint">image, under 5MB; resized to 400px</span>
        {error && (
          <span role="alert" className="text-xs text-bad">
            {error}
          </span>
        )}
      </div>
    </div>
  );
}
