import { useId } from "react";
import { Input } from "./input.tsx";

/** A passphrase typed under its label: the key backup's (twice) and its import's. */
export function PassphraseField({
  label,
  value,
  onChange,
  autoComplete,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** "new-password" where one is chosen, "off" where one is typed to open a file. */
  autoComplete: "new-password" | "off";
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className="text-xs uppercase tracking-widest text-faint">
        {label}
      </label>
      <Input
        id={id}
        type="password"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        autoComplete={autoComplete}
      />
    </div>
  );
}
