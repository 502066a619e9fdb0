import { useEffect, useEffectEvent } from "react";

/**
 * Calls `refetch` when the window gets the focus back or the tab becomes visible again: what
 * changed while the user was elsewhere (a wallet funded, a sell landed) shows at once.
 */
export function useRefetchOnFocus(refetch: () => void): void {
  const onReturn = useEffectEvent(refetch);
  useEffect(() => {
    const onFocus = () => onReturn();
    const onVisibility = () => {
      if (document.visibilityState === "visible") onReturn();
    };
    window.addEventListener("focus", onFocus);
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      window.removeEventListener("focus", onFocus);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, []);
}
