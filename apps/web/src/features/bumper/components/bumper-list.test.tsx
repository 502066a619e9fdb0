import { fireEvent, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { bumperFixture, bumperId } from "../../../testing/bumper-handlers.ts";
import { settle } from "../../../testing/render.tsx";
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
    expect(tab(/^Active/).textContent).toBe("Active (1)");
    expect(tab(/^Completed/).textContent).toBe("Completed (2)");
  });

  it("lists only the running or waiting bumpers under Active", async () => {
    await renderBumperPage(mixed());
    expect(screen.getAllByTestId("bumper-row")).toHaveLength(1);
    expect(screen.getByText("running")).toBeTruthy();
    expect(screen.queryByText("stopped")).toBeNull();
  });

  it("lists a stopped bumper under Completed, with the completed ones", async () => {
    await renderBumperPage(mixed());
    fireEvent.click(tab(/^Completed/));
    await settle();
    expect(screen.getAllByTestId("bumper-row")).toHaveLength(2);
    expect(screen.getByText("stopped")).toBeTruthy();
    expect(screen.getByText("completed")).toBeTruthy();
  });

  it("shows ten bumpers a page and the rest on the next page", async () => {
    const many = Array.from({ length: 12 }, (_, i) =>
      bumperFixture({ id: bumperId(i + 1), bumpsCompleted: i }),
    );
    await renderBumperPage(serverState({ bumpers: many }));
    expect(tab(/^Active/).textContent).toBe("Active (12)");
    expect(screen.getAllByTestId("bumper-row")).toHaveLength(10);
    fireEvent.click(screen.getByRole("button", { name: "Page 2" }));
    await settle();
    expect(screen.getAllByTestId("bumper-row")).toHaveLength(2);
    expect(screen.getByText("11/6 bumps · 0.0000 BNB")).toBeTruthy();
  });

  it("says no active bumpers were found when there are none", async () => {
    await renderBumperPage();
    expect(tab(/^Active/).textContent).toBe("Active (0)");
    expect(screen.getByText("No active bumpers found.")).toBeTruthy();
  });

  it("says no bumper has completed yet under an empty Completed tab", async () => {
    await renderBumperPage(serverState({ bumpers: [bumperFixture()] }));
    fireEvent.click(tab(/^Completed/));
    await settle();
    expect(screen.getByText("No completed bumpers yet.")).toBeTruthy();
  });

  it("says a completed bumper made all its bumps and to create a new one", async () => {
    await renderBumperPage(mixed());
    fireEvent.click(tab(/^Completed/));
    await settle();
    await selectBumper(1);
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
