import { useEffect, useEffectEvent, useRef } from "react";
import { useSearchParams } from "react-router";

const PARAM = "autoImport";

/**
 * `?autoImport=true` (the launch page's hand-off) imports the bundler wallets once; the
 * parameter is removed either way so a reload does not import again over the user's edits.
 */
export function useAutoImportParam(importWallets: () => void) {
  const [params, setParams] = useSearchParams();
  const present = params.has(PARAM);
  const requested = params.get(PARAM) === "true";
  const done = useRef(false);
  const run = useEffectEvent(importWallets);

  useEffect(() => {
    if (!present) return;
    if (requested && !done.current) {
      done.current = true;
      run();
    }
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(PARAM);
        return next;
      },
      { replace: true },
    );
  }, [present, requested, setParams]);
}
