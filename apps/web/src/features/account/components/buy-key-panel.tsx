import { REFERRAL_MESSAGES, referralCodeError } from "@bundler/shared";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Modal } from "../../../components/ui/modal.tsx";
import { readReferralCode } from "../../../lib/referral-code.ts";
import { AUTH_MODAL_TITLE_ID } from "../../auth/components/auth-modal-title.tsx";
import { BuyKeyStep } from "../../auth/components/buy-key-step.tsx";
import { GeneratedKeyStep } from "../../auth/components/generated-key-step.tsx";
import { useAuth } from "../../auth/hooks/use-auth.ts";
import { clearKeyPurchase, loadKeyPurchase } from "../../auth/utils/key-purchase.ts";

type Phase = { name: "form" } | { name: "buying"; code: string } | { name: "bought"; key: string };

/** A purchase left open (a reload while paying) is taken up again at once. */
const firstPhase = (): Phase =>
  loadKeyPurchase() ? { name: "buying", code: "" } : { name: "form" };

/**
 * Buying an access key while logged in, with a referral code typed here (or the one a
 * `?referral=` link left). A bought key is an account of its own: once it is copied or
 * downloaded, "Continue to App" switches to it, or the current key stays.
 */
export function BuyKeyPanel() {
  const { saveSession, startSession } = useAuth();
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<Phase>(firstPhase);
  const [code, setCode] = useState(() => readReferralCode() ?? "");
  const [problem, setProblem] = useState<string | null>(null);
  const codeId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = code.trim();
    const wrong = typed ? referralCodeError(typed) : null;
    setProblem(wrong === REFERRAL_MESSAGES.codeFormat ? REFERRAL_MESSAGES.invalidCode : wrong);
    if (!wrong) setPhase({ name: "buying", code: typed });
  };

  const done = () => {
    clearKeyPurchase();
    setPhase({ name: "form" });
  };
  const switchTo = async (key: string) => {
    await saveSession({ key, role: "user" });
    clearKeyPurchase();
    // Nothing of the old key's account may show under the new one.
    queryClient.removeQueries({ predicate: (query) => query.meta?.public !== true });
    startSession({ key, role: "user" });
    setPhase({ name: "form" });
  };

  return (
    <>
      <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
        <p className="text-sm text-dim">
          A bought key is a new account of its own, not tied to this device. This key's drafts and
          wallets stay with this key: download a backup of it first.
        </p>
        <div className="flex flex-col gap-2">
          <label htmlFor={codeId} className="text-xs uppercase tracking-widest text-faint">
            Referral code (optional)
          </label>
          <Input
            id={codeId}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
          />
        </div>
        {problem && (
          <p role="alert" className="text-sm text-bad">
            {problem}
          </p>
        )}
        <Button type="submit" className="self-start">
          [buy access key]
        </Button>
      </form>

      {phase.name !== "form" && (
        <Modal
          labelledBy={AUTH_MODAL_TITLE_ID}
          windowTitle="~/launch-bundler $ buy key"
          data-testid="buy-key-modal"
        >
          {phase.name === "buying" ? (
            <BuyKeyStep
              keepSession
              referralCode={phase.code}
              onBack={() => setPhase({ name: "form" })}
              onKey={(key) => setPhase({ name: "bought", key })}
            />
          ) : (
            <GeneratedKeyStep
              accessKey={phase.key}
              note={
                <p className="text-dim">
                  Your new key. Save it somewhere safe, then continue with it; this key's drafts and
                  wallets stay with this key.
                </p>
              }
              onContinue={() => void switchTo(phase.key)}
              extra={(saved) => (
                <Button variant="bracket" disabled={!saved} onClick={done} className="self-center">
                  [keep using the current key]
                </Button>
              )}
            />
          )}
        </Modal>
      )}
    </>
  );
}
