import { REFERRAL_MESSAGES, referralCodeError } from "@bundler/shared";
import { type FormEvent, useId, useState } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { ApiError } from "../../../lib/api-error.ts";
import { useCreateReferralCode } from "../api/create-referral-code.ts";
import { REFERRAL_TOASTS, referralFailure } from "../utils/referral-messages.ts";

/** No code yet: pick one (3–20 letters, digits, _ or -; unique regardless of case). */
export function CreateCodeForm() {
  const [code, setCode] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateReferralCode();
  const inputId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    const invalid = referralCodeError(code);
    setProblem(invalid);
    if (invalid) return;
    create.mutate(code.trim(), {
      onSuccess: ({ message }) => toast.success(message || REFERRAL_MESSAGES.created),
      onError: (error) => {
        toast.error(referralFailure(error, REFERRAL_TOASTS.createFailed));
        if (error instanceof ApiError && error.serverMessage) setProblem(error.serverMessage);
      },
    });
  };

  return (
    <form className="flex flex-col gap-3" onSubmit={submit} noValidate>
      <p className="text-dim">You have no referral code yet. Choose one:</p>
      <Field label="Custom code" error={problem} hint="3 to 20 letters, digits, _ or -">
        <Input
          id={inputId}
          aria-label="Custom code"
          value={code}
          maxLength={40}
          onChange={(event) => setCode(event.target.value)}
          placeholder="e.g. moon_cats"
          autoComplete="off"
          spellCheck={false}
        />
      </Field>
      <Button type="submit" busy={create.isPending} busyLabel="creating..." className="self-start">
        Create Code
      </Button>
    </form>
  );
}
