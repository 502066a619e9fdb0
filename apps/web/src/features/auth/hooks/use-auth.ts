import { isAdminRole, type Role } from "@bundler/shared";
import { createContext, useContext } from "react";

export type AuthState =
  | { status: "loading" }
  | { status: "anonymous" }
  /** A key is stored but the server could not say whether it is good (offline, 429, 5xx). */
  | { status: "unreachable"; title: string; hint: string; checking: boolean }
  | { status: "authenticated"; key: string; role: Role };

export interface SessionInput {
  key: string;
  role: Role;
}

export interface AuthContextValue {
  state: AuthState;
  /** Persists a key the server vouched for, stamped as validated now. Never throws. */
  saveSession: (session: SessionInput) => Promise<void>;
  /** Logs in with a key (already saved): the modal goes, the api client and socket use it. */
  startSession: (session: SessionInput) => void;
  /** Forgets key, role and last-validated time (not the device id) and shows the modal. */
  logout: () => Promise<void>;
  getDeviceId: () => Promise<string>;
  /** Asks the server about the stored key again now (while unreachable). */
  retry: () => void;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth() {
  const context = useContext(AuthContext);
  if (!context) throw new Error("useAuth must be used inside <AuthProvider>");
  const { state } = context;
  const authKey = state.status === "authenticated" ? state.key : null;
  const role = state.status === "authenticated" ? state.role : null;
  return { ...context, status: state.status, authKey, role, isAdmin: isAdminRole(role) };
}
