/** Quick-fill buttons under an amount input; the active one is highlighted. */
export function PresetButtons({
  presets,
  value,
  onPick,
  suffix = "",
}: {
  presets: readonly { label: string; value: string }[];
  value: string;
  onPick: (value: string) => void;
  suffix?: string;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      {presets.map((preset) => (
        <button
          key={preset.label}
          type="button"
          aria-pressed={value === preset.value}
          onClick={() => onPick(preset.value)}
          className={`rounded-sm border px-2 py-0.5 text-xs transition-colors ${
            value === preset.value
              ? "border-accent bg-accent-soft text-accent"
              : "border-line-strong text-dim hover:border-accent hover:text-accent"
          }`}
        >
          {preset.label}
          {suffix}
        </button>
      ))}
    </div>
  );
}
