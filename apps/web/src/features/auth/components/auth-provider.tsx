import { AUTH_MESSAGES } from "@bundler/shared";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useCallback, useEffect, useMemo, useState } from "react";
import toast from "react-hot-toast";
import { setApiAuthKey, setUnauthorizedHandler } from "../../../lib/api-client.ts";
import { randomUuid } from "../../../lib/key-store.ts";
import { getKeyStore } from "../../../lib/key-store-browser.ts";
import { validateKey } from "../api/validate-key.ts";
import { AuthContext, type AuthState, type SessionInput } from "../hooks/use-auth.ts";
import { restoreSession } from "../utils/restore-session.ts";
import { STARTUP_RETRY_MS } from "../utils/stored-session.ts";

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const store = getKeyStore();
  const [state, setState] = useState<AuthState>({ status: "loading" });
  // Each increment asks the server about the stored key again.
  const [attempt, setAttempt] = useState(0);
  // Used only when storage is broken: a device id for this page load.
  const [spareDeviceId] = useState(randomUuid);

  const saveSession = useCallback(
    async ({ key, role }: SessionInput) => {
      try {
        await store.save({ key, role, lastValidatedAt: Date.now() });
      } catch (error) {
        console.error(error);
        toast.error(AUTH_MESSAGES.storeFailed);
      }
    },
    [store],
  );

  const startSession = useCallback(({ key, role }: SessionInput) => {
    // Set synchronously, before any child mounts and fires a request with the old key.
    setApiAuthKey(key);
    setState({ status: "authenticated", key, role });
  }, []);

  const logout = useCallback(async () => {
    // The key stops going out at once, but the logged-out screen shows only once the stored
    // key is gone: a page reloaded (or closed) the moment the modal appeared found it still
    // stored (IndexedDB's delete had not committed) and logged the user straight back in.
    setApiAuthKey(null);
    try {
      await store.clear();
    } catch (error) {
      console.error(error);
      toast.error(AUTH_MESSAGES.clearFailed);
    }
    setState({ status: "anonymous" });
    // Drop everything that belonged to the session; public data (config, news) stays.
    queryClient.removeQueries({ predicate: (query) => query.meta?.public !== true });
  }, [queryClient, store]);

  const getDeviceId = useCallback(
    () => store.deviceId().catch(() => spareDeviceId),
    [store, spareDeviceId],
  );

  const retry = useCallback(() => {
    setState((current) =>
      current.status === "unreachable" ? { ...current, checking: true } : current,
    );
    setAttempt((count) => count + 1);
  }, []);

  useEffect(() => {
    setUnauthorizedHandler(() => void logout());
  }, [logout]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry trigger.
  useEffect(() => {
    let active = true;
    restoreSession({ store, validate: validateKey, save: saveSession, now: Date.now }).then(
      (result) => {
        if (!active) return;
        if (result.kind === "session") startSession(result.session);
        else if (result.kind === "anonymous") setState({ status: "anonymous" });
        else
          setState({
            status: "unreachable",
            title: result.title,
            hint: result.hint,
            checking: false,
          });
      },
    );
    return () => {
      active = false;
    };
  }, [store, saveSession, startSession, attempt]);

  // The stored key is kept while the server cannot answer; ask again every few seconds.
  useEffect(() => {
    if (state.status !== "unreachable" || state.checking) return;
    const timer = setTimeout(retry, STARTUP_RETRY_MS);
    return () => clearTimeout(timer);
  }, [state, retry]);

  const value = useMemo(
    () => ({ state, saveSession, startSession, logout, getDeviceId, retry }),
    [state, saveSession, startSession, logout, getDeviceId, retry],
  );
  return <AuthContext value={value}>{children}</AuthContext>;
}
