import type { NewsInput } from "@bundler/shared";
import { useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Input } from "../../../components/ui/input.tsx";

const EMPTY: NewsInput = { content: "", label: "", labelColor: "#f0b90b" };

/** A news item's text, label and label color; [publish] or [save] hands them on. */
export function NewsForm({
  initial = EMPTY,
  submitLabel,
  busy,
  onSubmit,
  onCancel,
}: {
  initial?: NewsInput;
  submitLabel: string;
  busy: boolean;
  /** Answers whether it went through (the form then empties, or closes). */
  onSubmit: (input: NewsInput) => Promise<boolean>;
  onCancel?: () => void;
}) {
  const [values, setValues] = useState<NewsInput>(initial);
  const set = (name: keyof NewsInput) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [name]: event.target.value }));
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={async (event) => {
        event.preventDefault();
        if ((await onSubmit(values)) && !onCancel) setValues(EMPTY);
      }}
    >
      <Field label="News text">
        <textarea
          aria-label="News text"
          value={values.content}
          onChange={set("content")}
          rows={2}
          className="rounded-sm border border-line-strong bg-ink px-3 py-2 text-fg focus:border-accent focus:outline-none"
        />
      </Field>
      <div className="flex flex-wrap items-end gap-3">
        <Field label="Label">
          <Input aria-label="Label" value={values.label} onChange={set("label")} />
        </Field>
        <Field label="Label color">
          <input
            aria-label="Label color"
            type="color"
            value={values.labelColor}
            onChange={set("labelColor")}
            className="h-9 w-14 rounded-sm border border-line-strong bg-ink"
          />
        </Field>
        <Button type="submit" busy={busy}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button variant="secondary" onClick={onCancel}>
            [cancel]
          </Button>
        )}
      </div>
    </form>
  );
}
