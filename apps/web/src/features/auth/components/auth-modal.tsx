import { useState } from "react";
import { Modal } from "../../../components/ui/modal.tsx";
import { useAuth } from "../hooks/use-auth.ts";
import { loadKeyPurchase } from "../utils/key-purchase.ts";
import { AUTH_MODAL_TITLE_ID } from "./auth-modal-title.tsx";
import { BuyKeyStep } from "./buy-key-step.tsx";
import { GeneratedKeyStep } from "./generated-key-step.tsx";
import { ImportKeyStep } from "./import-key-step.tsx";
import { ServerUnreachableStep } from "./server-unreachable-step.tsx";
import { WelcomeStep } from "./welcome-step.tsx";

type Step =
  | { name: "welcome" }
  | { name: "import" }
  | { name: "buy" }
  | { name: "generated"; key: string };

/** A purchase left open (a reload while paying) is taken up again at once. */
const firstStep = (): Step => (loadKeyPurchase() ? { name: "buy" } : { name: "welcome" });

/**
 * The blocking modal shown whenever nobody is logged in, or while the server cannot say
 * whether the stored key is still good.
 */
export function AuthModal() {
  const { state, retry } = useAuth();
  const [step, setStep] = useState<Step>(firstStep);
  const welcome = () => setStep({ name: "welcome" });

  return (
    <Modal
      labelledBy={AUTH_MODAL_TITLE_ID}
      windowTitle="~/launch-bundler $ auth"
      data-testid="auth-modal"
    >
      {state.status === "unreachable" ? (
        <ServerUnreachableStep
          title={state.title}
          hint={state.hint}
          checking={state.checking}
          onRetry={retry}
        />
      ) : (
        <>
          {step.name === "welcome" && (
            <WelcomeStep
              onImport={() => setStep({ name: "import" })}
              onBuy={() => setStep({ name: "buy" })}
              onGenerated={(key) => setStep({ name: "generated", key })}
            />
          )}
          {step.name === "import" && <ImportKeyStep onBack={welcome} />}
          {step.name === "buy" && (
            <BuyKeyStep onBack={welcome} onKey={(key) => setStep({ name: "generated", key })} />
          )}
          {step.name === "generated" && <GeneratedKeyStep accessKey={step.key} />}
        </>
      )}
    </Modal>
  );
}
