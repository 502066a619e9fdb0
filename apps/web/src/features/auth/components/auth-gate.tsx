import type { ReactNode } from "react";
import { Navigate } from "react-router";
import { useAuth } from "../hooks/use-auth.ts";

/**
 * Renders a login-required page only for a logged-in user. Logged out, the layout's blocking
 * modal is up and the page stays unmounted, so it fires no request that would fail with 401.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  if (status !== "authenticated") {
    return <p className="px-4 py-16 text-center text-faint">Log in to use this page.</p>;
  }
  return children;
}

/** Admin and superadmin only; any other logged-in role goes to "/". */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { status, isAdmin } = useAuth();
  if (status !== "authenticated") return null;
  if (!isAdmin) return <Navigate to="/" replace />;
  return children;
}
