import type { Role } from "@bundler/shared";
import { screen } from "@testing-library/react";
import { Route, Routes } from "react-router";
import { describe, expect, it } from "vitest";
import { LocationProbe, renderInApp } from "../../../testing/render.tsx";
import { RequireAdmin, RequireSuperadmin } from "./auth-gate.tsx";

const renderAt = (route: string, role: Role) =>
  renderInApp(
    <>
      <Routes>
        <Route
          path="/admin"
          element={
            <RequireAdmin>
              <p>dashboard</p>
            </RequireAdmin>
          }
        />
        <Route
          path="/admin/audit"
          element={
            <RequireAdmin>
              <RequireSuperadmin>
                <p>audit log</p>
              </RequireSuperadmin>
            </RequireAdmin>
          }
        />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <LocationProbe />
    </>,
    { route, authKey: "lbk_test", role },
  );

describe("the admin route guards", () => {
  it("send a user from /admin to /", () => {
    renderAt("/admin", "user");
    expect(screen.getByTestId("location").textContent).toBe("/");
    expect(screen.queryByText("dashboard")).toBeNull();
  });

  it("let an admin see /admin", () => {
    renderAt("/admin", "admin");
    expect(screen.getByText("dashboard")).toBeTruthy();
  });

  it("send a user from /admin/audit to /", () => {
    renderAt("/admin/audit", "user");
    expect(screen.getByTestId("location").textContent).toBe("/");
  });

  it("send an admin from /admin/audit back to /admin", () => {
    renderAt("/admin/audit", "admin");
    expect(screen.getByTestId("location").textContent).toBe("/admin");
    expect(screen.getByText("dashboard")).toBeTruthy();
  });

  it("let a superadmin see /admin/audit", () => {
    renderAt("/admin/audit", "superadmin");
    expect(screen.getByText("audit log")).toBeTruthy();
  });
});
