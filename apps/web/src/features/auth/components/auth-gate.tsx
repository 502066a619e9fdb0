import { AUTH_MESSAGES } from "@bundler/shared";
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
    return (
      <div className="flex flex-col gap-1 px-4 py-16 text-center">
        <p className="text-dim">{AUTH_MESSAGES.noKeyFound}</p>
        <p className="text-faint">Log in to use this page.</p>
      </div>
    );
  }
  return children;
}

/** Admin and superadmin only; anyone else (a user, nobody) goes to "/". */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { status, isAdmin } = useAuth();
  // Until the stored key's role is known, nobody is sent anywhere.
  if (status === "loading" || status === "unreachable") return null;
  if (!isAdmin) return <Navigate to="/" replace />;
  return children;
}

/** Superadmin only (inside RequireAdmin): an admin goes back to the dashboard. */
export function RequireSuperadmin({ children }: { children: ReactNode }) {
  const { status, role } = useAuth();
  if (status === "loading" || status === "unreachable") return null;
  if (role !== "superadmin") return <Navigate to="/admin" replace />;
  return children;
}
