import { useState } from "react";
import { Modal } from "../../../components/ui/modal.tsx";
import { AUTH_MODAL_TITLE_ID } from "./auth-modal-title.tsx";
import { GeneratedKeyStep } from "./generated-key-step.tsx";
import { ImportKeyStep } from "./import-key-step.tsx";
import { WelcomeStep } from "./welcome-step.tsx";

type Step = { name: "welcome" } | { name: "import" } | { name: "generated"; key: string };

/** The blocking modal shown whenever nobody is logged in. */
export function AuthModal() {
  const [step, setStep] = useState<Step>({ name: "welcome" });
  const welcome = () => setStep({ name: "welcome" });

  return (
    <Modal
      labelledBy={AUTH_MODAL_TITLE_ID}
      windowTitle="~/launch-bundler $ auth"
      data-testid="auth-modal"
    >
      {step.name === "welcome" && (
        <WelcomeStep
          onImport={() => setStep({ name: "import" })}
          onGenerated={(key) => setStep({ name: "generated", key })}
        />
      )}
      {step.name === "import" && <ImportKeyStep onBack={welcome} />}
      {step.name === "generated" && <GeneratedKeyStep accessKey={step.key} />}
    </Modal>
  );
}
