import { AUTH_MESSAGES, LAUNCH_FEE_BNB } from "@bundler/shared";
import { useState } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/button.tsx";
import { ApiError } from "../../../lib/api-error.ts";
import { useGenerateFreeKey } from "../api/generate-free-key.ts";
import { useAuth } from "../hooks/use-auth.ts";
import { generateFailureMessage } from "../utils/auth-messages.ts";
import { withReferralCode } from "../utils/with-referral-code.ts";
import { AuthModalTitle } from "./auth-modal-title.tsx";
import { BuyKeyOffer } from "./buy-key-offer.tsx";

export interface WelcomeStepProps {
  onImport: () => void;
  onBuy: () => void;
  onGenerated: (key: string) => void;
}

export function WelcomeStep({ onImport, onBuy, onGenerated }: WelcomeStepProps) {
  const { saveSession, getDeviceId } = useAuth();
  const generate = useGenerateFreeKey();
  // The whole flow is async; without this a double click could ask twice (409).
  const [busy, setBusy] = useState(false);
  // The server's refusal, said under the spec's words (a device that already has a key: 409).
  const [refusal, setRefusal] = useState<{ reason: string; hasKey: boolean } | null>(null);

  const getFreeAccess = async () => {
    if (busy) return;
    setBusy(true);
    setRefusal(null);
    try {
      const deviceId = await getDeviceId();
      const { key } = await withReferralCode((referralCode) =>
        generate.mutateAsync({
          deviceId,
          userAgent: navigator.userAgent.slice(0, 512),
          referralCode,
        }),
      );
      // Stored at once, so a reload during the next two seconds does not lose the key.
      await saveSession({ key, role: "user" });
      toast.success(AUTH_MESSAGES.generated);
      onGenerated(key);
    } catch (error) {
      if (!(error instanceof ApiError)) console.error(error);
      toast.error(generateFailureMessage(error));
      if (error instanceof ApiError && error.serverMessage)
        setRefusal({ reason: error.serverMessage, hasKey: error.status === 409 });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-2">
        <AuthModalTitle>Welcome to Launch Bundler</AuthModalTitle>
        <p className="text-dim">
          Launch a token on BNB Smart Chain and buy it from many wallets in the same block.
        </p>
        <p className="text-dim">
          Access is free. You only pay the <span className="text-accent">{LAUNCH_FEE_BNB} BNB</span>{" "}
          launch fee when you launch.
        </p>
      </div>
      <Button
        ref={(button) => button?.focus()}
        busy={busy}
        busyLabel="Generating..."
        onClick={getFreeAccess}
        className="w-full"
      >
        Get Free Access
      </Button>
      {refusal && (
        <div
          role="alert"
          data-testid="free-key-refused"
          className="flex flex-col gap-2 rounded-sm border border-bad/50 bg-bad/10 px-3 py-3"
        >
          <p className="text-bad">{AUTH_MESSAGES.generateFailed}</p>
          <p className="text-fg">{refusal.reason}</p>
          {refusal.hasKey && (
            <Button variant="secondary" onClick={onImport} className="self-start">
              [import key]
            </Button>
          )}
        </div>
      )}
      <BuyKeyOffer onBuy={onBuy} />
      <Button variant="bracket" onClick={onImport} className="self-center">
        [import existing key]
      </Button>
    </div>
  );
}
