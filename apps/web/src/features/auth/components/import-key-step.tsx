import { AUTH_MESSAGES } from "@bundler/shared";
import { type FormEvent, useId, useState } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/button.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { ApiError } from "../../../lib/api-error.ts";
import { useValidateKey } from "../api/validate-key.ts";
import { useAuth } from "../hooks/use-auth.ts";
import { importFailureMessage, importKeyProblem } from "../utils/auth-messages.ts";
import { AuthModalTitle } from "./auth-modal-title.tsx";

export function ImportKeyStep({ onBack }: { onBack: () => void }) {
  const { saveSession, startSession } = useAuth();
  const [value, setValue] = useState("");
  const inputId = useId();
  const validate = useValidateKey();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (validate.isPending) return;
    const problem = importKeyProblem(value);
    if (problem) {
      toast.error(problem);
      return;
    }
    const key = value.trim();
    try {
      const { role } = await validate.mutateAsync(key);
      await saveSession({ key, role });
      toast.success(AUTH_MESSAGES.validated);
      startSession({ key, role });
    } catch (error) {
      if (!(error instanceof ApiError)) console.error(error);
      toast.error(importFailureMessage(error));
    }
  };

  return (
    <form className="flex flex-col gap-5" onSubmit={submit} noValidate>
      <div className="flex flex-col gap-2">
        <AuthModalTitle>Import Existing Key</AuthModalTitle>
        <p className="text-dim">Paste the access key you saved earlier.</p>
      </div>
      <div className="flex flex-col gap-2">
        <label htmlFor={inputId} className="text-xs uppercase tracking-widest text-faint">
          Access key
        </label>
        <Input
          id={inputId}
          ref={(input) => input?.focus()}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          placeholder="lbk_..."
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
        />
      </div>
      <Button type="submit" busy={validate.isPending} busyLabel="Validating..." className="w-full">
        Import Key
      </Button>
      <Button variant="bracket" onClick={onBack} className="self-center">
        [back]
      </Button>
    </form>
  );
}
