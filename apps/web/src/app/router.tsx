import type { ComponentType } from "react";
import { createBrowserRouter, Outlet } from "react-router";
import { RouterProvider } from "react-router/dom";
import { LoadingScreen } from "../components/ui/loading-screen.tsx";
import {
  RequireAdmin,
  RequireAuth,
  RequireSuperadmin,
} from "../features/auth/components/auth-gate.tsx";
import { AppLayout } from "./shell/app-layout.tsx";
import { RouteErrorFallback } from "./shell/error-fallback.tsx";
import { NotFound } from "./shell/not-found.tsx";

/** Each screen is its own chunk, loaded when first visited. */
const page = (load: () => Promise<ComponentType>) => async () => ({ Component: await load() });

const launchPage = page(() =>
  import("../features/launch/components/launch-page.tsx").then((m) => m.LaunchPage),
);

export const router = createBrowserRouter([
  {
    Component: AppLayout,
    ErrorBoundary: RouteErrorFallback,
    HydrateFallback: () => <LoadingScreen />,
    children: [
      { index: true, lazy: launchPage },
      { path: "create", lazy: launchPage },
      {
        path: "tools",
        lazy: page(() =>
          import("../features/tools/components/tools-page.tsx").then((m) => m.ToolsPage),
        ),
      },
      {
        // Not behind RequireAuth: the page itself says it is authenticating or needs a login.
        path: "tools/bumper",
        lazy: page(() =>
          import("../features/bumper/components/bumper-page.tsx").then((m) => m.BumperPage),
        ),
      },
      {
        element: (
          <RequireAuth>
            <Outlet />
          </RequireAuth>
        ),
        children: [
          {
            path: "drafts",
            lazy: page(() =>
              import("../features/drafts/components/drafts-page.tsx").then((m) => m.DraftsPage),
            ),
          },
          {
            path: "disperser",
            lazy: page(() =>
              import("../features/disperser/components/disperser-page.tsx").then(
                (m) => m.DisperserPage,
              ),
            ),
          },
          {
            path: "wallets",
            lazy: page(() =>
              import("../features/wallets/components/wallets-page.tsx").then((m) => m.WalletsPage),
            ),
          },
          {
            path: "wallets/:address",
            lazy: page(() =>
              import("../features/wallets/components/bundle-detail-page.tsx").then(
                (m) => m.BundleDetailPage,
              ),
            ),
          },
          {
            path: "referral",
            lazy: page(() =>
              import("../features/referral/components/referral-page.tsx").then(
                (m) => m.ReferralPage,
              ),
            ),
          },
          {
            path: "account",
            lazy: page(() =>
              import("../features/account/components/account-page.tsx").then((m) => m.AccountPage),
            ),
          },
          {
            path: "tx/:hash",
            lazy: page(() => import("../features/tx/components/tx-page.tsx").then((m) => m.TxPage)),
          },
          {
            path: "address/:address",
            lazy: page(() =>
              import("../features/tx/components/address-page.tsx").then((m) => m.AddressPage),
            ),
          },
        ],
      },
      {
        path: "admin",
        element: (
          <RequireAdmin>
            <Outlet />
          </RequireAdmin>
        ),
        children: [
          {
            index: true,
            lazy: page(() =>
              import("../features/admin/components/admin-page.tsx").then((m) => m.AdminPage),
            ),
          },
          {
            path: "key/:id",
            lazy: page(() =>
              import("../features/admin/components/admin-user-page.tsx").then(
                (m) => m.AdminUserPage,
              ),
            ),
          },
          {
            path: "builders",
            lazy: page(() =>
              import("../features/admin/components/builders-page.tsx").then((m) => m.BuildersPage),
            ),
          },
          {
            path: "audit",
            element: (
              <RequireSuperadmin>
                <Outlet />
              </RequireSuperadmin>
            ),
            children: [
              {
                index: true,
                lazy: page(() =>
                  import("../features/admin/components/audit-page.tsx").then((m) => m.AuditPage),
                ),
              },
            ],
          },
          {
            path: "preflight",
            element: (
              <RequireSuperadmin>
                <Outlet />
              </RequireSuperadmin>
            ),
            children: [
              {
                index: true,
                lazy: page(() =>
                  import("../features/admin/components/preflight-page.tsx").then(
                    (m) => m.PreflightPage,
                  ),
                ),
              },
            ],
          },
        ],
      },
      { path: "*", Component: NotFound },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
