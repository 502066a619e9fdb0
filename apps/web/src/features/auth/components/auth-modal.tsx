import { useState } from "react";
import { Modal } from "../../../components/ui/modal.tsx";
import { useAuth } from "../hooks/use-auth.ts";
import { AUTH_MODAL_TITLE_ID } from "./auth-modal-title.tsx";
import { GeneratedKeyStep } from "./generated-key-step.tsx";
import { ImportKeyStep } from "./import-key-step.tsx";
import { ServerUnreachableStep } from "./server-unreachable-step.tsx";
import { WelcomeStep } from "./welcome-step.tsx";

type Step = { name: "welcome" } | { name: "import" } | { name: "generated"; key: string };

/**
 * The blocking modal shown whenever nobody is logged in, or while the server cannot say
 * whether the stored key is still good.
 */
export function AuthModal() {
  const { state, retry } = useAuth();
  const [step, setStep] = useState<Step>({ name: "welcome" });
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
              onGenerated={(key) => setStep({ name: "generated", key })}
            />
          )}
          {step.name === "import" && <ImportKeyStep onBack={welcome} />}
          {step.name === "generated" && <GeneratedKeyStep accessKey={step.key} />}
        </>
      )}
    </Modal>
  );
}
