import { BUMPER_DEFAULTS, type BumperForm, bumperFormError } from "@bundler/shared";
import { useState } from "react";
import { clampDuration, type TimeUnit, toMinutes } from "../utils/duration-unit.ts";

export interface BumperFormValues {
  targetToken: string;
  interval: string;
  intervalUnit: TimeUnit;
  duration: string;
  durationUnit: TimeUnit;
  buySize: string;
}

export const DEFAULT_FORM: BumperFormValues = {
  targetToken: "",
  interval: String(BUMPER_DEFAULTS.interval),
  intervalUnit: "minutes",
  duration: String(BUMPER_DEFAULTS.duration),
  durationUnit: "minutes",
  buySize: String(BUMPER_DEFAULTS.buySize),
};

/** What the server is sent: both times in minutes, the buy size in BNB. */
export const formInMinutes = (values: BumperFormValues): BumperForm => ({
  targetToken: values.targetToken.trim(),
  interval: toMinutes(values.interval, values.intervalUnit),
  duration: toMinutes(values.duration, values.durationUnit),
  buySize: values.buySize.trim() === "" ? Number.NaN : Number(values.buySize),
});

/**
 * The config form's values and its message: set on a generate attempt (the §5 message that
 * applies first) and cleared by any edit.
 */
export function useBumperForm() {
  const [values, setValues] = useState<BumperFormValues>(DEFAULT_FORM);
  const [error, setError] = useState<string | null>(null);

  const set = <K extends keyof BumperFormValues>(name: K, value: BumperFormValues[K]) => {
    setError(null);
    setValues((current) => {
      const next = { ...current, [name]: value };
      // A unit change keeps the number; past one day it is clamped to one day.
      if (name === "durationUnit") next.duration = clampDuration(next.duration, next.durationUnit);
      return next;
    });
  };

  /** The form in minutes when valid; otherwise null, with the message shown. */
  const validate = (): BumperForm | null => {
    const form = formInMinutes(values);
    const message = bumperFormError(form);
    setError(message);
    return message ? null : form;
  };

  const reset = () => {
    setValues(DEFAULT_FORM);
    setError(null);
  };

  return { values, set, error, validate, reset };
}

export type BumperFormState = ReturnType<typeof useBumperForm>;
