import { AUTH_MESSAGES } from "@bundler/shared";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useCallback, useEffect, useMemo, useState } from "react";
import toast from "react-hot-toast";
import {
  ApiError,
  notifyApiError,
  setApiAuthKey,
  setUnauthorizedHandler,
} from "../../../lib/api-client.ts";
import { type KeyStore, randomUuid } from "../../../lib/key-store.ts";
import { getKeyStore } from "../../../lib/key-store-browser.ts";
import { validateKey } from "../api/validate-key.ts";
import { AuthContext, type AuthState, type SessionInput } from "../hooks/use-auth.ts";
import { decideStartup, isKeyRejection } from "../utils/stored-session.ts";

const NOTHING_STORED = { key: null, role: null, lastValidatedAt: null };

/** Resolves the stored key to a session at start-up, or null when the user must log in. */
async function restoreSession(
  store: KeyStore,
  saveSession: (session: SessionInput) => Promise<void>,
): Promise<SessionInput | null> {
  const stored = await store.load().catch(() => NOTHING_STORED);
  const decision = decideStartup(stored, Date.now());
  if (decision.kind === "none") return null;
  if (decision.kind === "trusted") return { key: decision.key, role: decision.role };
  try {
    const { role } = await validateKey(decision.key);
    await saveSession({ key: decision.key, role });
    return { key: decision.key, role };
  } catch (error) {
    if (!(error instanceof ApiError)) console.error(error);
    else if (isKeyRejection(error)) await store.clear().catch(() => undefined);
    else notifyApiError(error);
    return null;
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const store = getKeyStore();
  const [state, setState] = useState<AuthState>({ status: "loading" });
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
    setApiAuthKey(null);
    setState({ status: "anonymous" });
    // Drop everything that belonged to the session; public data (config, news) stays.
    queryClient.removeQueries({ predicate: (query) => query.meta?.public !== true });
    try {
      await store.clear();
    } catch (error) {
      console.error(error);
      toast.error(AUTH_MESSAGES.clearFailed);
    }
  }, [queryClient, store]);

  const getDeviceId = useCallback(
    () => store.deviceId().catch(() => spareDeviceId),
    [store, spareDeviceId],
  );

  useEffect(() => {
    setUnauthorizedHandler(() => void logout());
  }, [logout]);

  useEffect(() => {
    let active = true;
    restoreSession(store, saveSession).then((session) => {
      if (!active) return;
      if (session) startSession(session);
      else setState({ status: "anonymous" });
    });
    return () => {
      active = false;
    };
  }, [store, saveSession, startSession]);

  const value = useMemo(
    () => ({ state, saveSession, startSession, logout, getDeviceId }),
    [state, saveSession, startSession, logout, getDeviceId],
  );
  return <AuthContext value={value}>{children}</AuthContext>;
}
