import { fireEvent, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { bumperFixture, bumperId } from "../../../testing/bumper-handlers.ts";
import { field, press, renderBumperPage, selectBumper, serverState } from "./bumper-test-utils.tsx";

beforeEach(() => {
  vi.useFakeTimers();
});

const tab = (name: RegExp) => screen.getByRole("tab", { name });

const mixed = () =>
  serverState({
    bumpers: [
      bumperFixture({ id: bumperId(1), status: "active", active: true, balance: "0.02" }),
      bumperFixture({ id: bumperId(2), status: "stopped" }),
      bumperFixture({ id: bumperId(3), status: "completed", bumpsCompleted: 6 }),
    ],
  });

describe("the list of bumpers", () => {
  it("counts the bumpers under each tab", async () => {
    await renderBumperPage(mixed());
    expect(tab(/^Active/).textContent).toBe("Active (2)");
    expect(tab(/^Completed/).textContent).toBe("Completed (1)");
  });

  it("lists every bumper not completed under Active", async () => {
    await renderBumperPage(mixed());
    expect(screen.getAllByTestId("bumper-row")).toHaveLength(2);
  });

  it("lists only completed bumpers under Completed", async () => {
    await renderBumperPage(mixed());
    fireEvent.click(tab(/^Completed/));
    expect(screen.getAllByTestId("bumper-row")).toHaveLength(1);
    expect(screen.getByText("completed")).toBeTruthy();
  });

  it("says no active bumpers were found when there are none", async () => {
    await renderBumperPage();
    expect(tab(/^Active/).textContent).toBe("Active (0)");
    expect(screen.getByText("No active bumpers found.")).toBeTruthy();
  });

  it("says no bumper has completed yet under an empty Completed tab", async () => {
    await renderBumperPage(serverState({ bumpers: [bumperFixture()] }));
    fireEvent.click(tab(/^Completed/));
    expect(screen.getByText("No completed bumpers yet.")).toBeTruthy();
  });

  it("says a completed bumper made all its bumps and to create a new one", async () => {
    await renderBumperPage(mixed());
    fireEvent.click(tab(/^Completed/));
    await selectBumper();
    expect(screen.getByTestId("completed-banner").textContent).toBe(
      "This bumper has completed all 6 configured bumps. Create a new bumper to continue.",
    );
  });

  it("shows no completion banner over a bumper still running", async () => {
    await renderBumperPage(mixed());
    await selectBumper();
    expect(screen.queryByTestId("completed-banner")).toBeNull();
  });

  it("clears the selection and unlocks the form on Generate new bumper", async () => {
    await renderBumperPage(mixed());
    await selectBumper();
    expect(field("Token address").disabled).toBe(true);
    press("Generate new bumper");
    expect(screen.queryByTestId("bumper-address")).toBeNull();
    expect(field("Token address").disabled).toBe(false);
    expect(field("Token address").value).toBe("");
  });
});
