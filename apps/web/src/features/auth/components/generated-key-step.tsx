import { AUTH_MESSAGES, FREE_KEY_AUTO_CONTINUE_MS } from "@bundler/shared";
import { useEffect, useEffectEvent } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/button.tsx";
import { copyText } from "../../../lib/clipboard.ts";
import { useAuth } from "../hooks/use-auth.ts";
import { AuthModalTitle } from "./auth-modal-title.tsx";

/** Shows a freshly generated (already stored) key, then logs in after 2 s or on click. */
export function GeneratedKeyStep({ accessKey }: { accessKey: string }) {
  const { startSession } = useAuth();
  const continueToApp = () => startSession({ key: accessKey, role: "user" });
  const autoContinue = useEffectEvent(continueToApp);

  useEffect(() => {
    const timer = setTimeout(autoContinue, FREE_KEY_AUTO_CONTINUE_MS);
    return () => clearTimeout(timer);
  }, []);

  const copy = async () => {
    if (await copyText(accessKey)) toast.success(AUTH_MESSAGES.copied);
  };

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-2">
        <AuthModalTitle>Your Access Key</AuthModalTitle>
        <p className="text-dim">
          Save this key somewhere safe: it is how you get back in on another browser.
        </p>
      </div>
      <div className="flex items-stretch gap-2">
        <code
          data-testid="generated-key"
          className="min-w-0 flex-1 break-all rounded-sm border border-accent/40 bg-ink px-3 py-2 text-accent"
        >
          {accessKey}
        </code>
        <Button variant="secondary" onClick={copy} aria-label="Copy access key">
          [copy]
        </Button>
      </div>
      <Button ref={(button) => button?.focus()} onClick={continueToApp} className="w-full">
        Continue to App
      </Button>
      <div className="flex flex-col gap-1 text-xs text-faint">
        <span>continuing automatically...</span>
        <span className="h-px w-full bg-line">
          <span
            className="block h-px origin-left animate-drain bg-accent"
            style={{ animationDuration: `${FREE_KEY_AUTO_CONTINUE_MS}ms` }}
          />
        </span>
      </div>
    </div>
  );
}
