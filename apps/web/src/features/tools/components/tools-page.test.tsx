import { fireEvent, screen } from "@testing-library/react";
import { Route, Routes } from "react-router";
import { describe, expect, it } from "vitest";
import { LocationProbe, renderInApp } from "../../../testing/render.tsx";
import { ToolsPage } from "./tools-page.tsx";

const renderTools = () =>
  renderInApp(
    <Routes>
      <Route
        path="*"
        element={
          <>
            <ToolsPage />
            <LocationProbe />
          </>
        }
      />
    </Routes>,
    { route: "/tools" },
  );

describe("the tools page", () => {
  it("opens the bumper from its card", () => {
    renderTools();
    fireEvent.click(screen.getByRole("link", { name: "[open bumper]" }));
    expect(screen.getByTestId("location").textContent).toBe("/tools/bumper");
  });

  it("explains how the bumper works and what its transactions cost", () => {
    renderTools();
    expect(screen.getByText("Each sell creates a new wallet.")).toBeTruthy();
    expect(screen.getByText("$0.10 gas")).toBeTruthy();
    expect(screen.getByText("$0.30 gas")).toBeTruthy();
    expect(screen.getByText("$0.09 gas")).toBeTruthy();
  });

  it("counts the builder's tip of every bump among the bumper's costs", () => {
    renderTools();
    expect(screen.getByText("Builder tip")).toBeTruthy();
    expect(screen.getByText("0.0005 BNB (about $0.30) a bump")).toBeTruthy();
  });

  it("shows the comment generator as coming soon with its price", () => {
    renderTools();
    expect(screen.getByText("coming soon")).toBeTruthy();
    expect(screen.getByText("First 10 comments free, then $0.1 each.")).toBeTruthy();
  });
});
