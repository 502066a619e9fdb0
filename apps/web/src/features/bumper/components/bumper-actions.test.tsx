import type { Bumper } from "@bundler/shared";
import { screen } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { bumperFixture, TOKEN } from "../../../testing/bumper-handlers.ts";
import { server } from "../../../testing/msw-server.ts";
import { advance, settle, toastTexts } from "../../../testing/render.tsx";
import {
  field,
  openTabOf,
  postHandler,
  press,
  refused,
  renderBumperPage,
  selectBumper,
  serverState,
  type,
} from "./bumper-test-utils.tsx";

beforeEach(() => {
  vi.useFakeTimers();
});

/** `/api/bumper/generate` answering `bumper`, which the server then lists. */
function generateServer(state: { bumpers: Bumper[] }, bumper: Bumper, existingBumper: boolean) {
  server.use(
    http.post("/api/bumper/generate", () => {
      if (!existingBumper) state.bumpers.push(bumper);
      return HttpResponse.json({
        success: true,
        bumper,
        existingBumper,
        message: existingBumper ? "Existing bumper loaded" : "Bumper generated",
      });
    }),
  );
}

async function generate() {
  type("Token address", TOKEN);
  press("Generate bumper");
  await settle();
  await settle();
}

describe("generating a bumper", () => {
  it("toasts that it was generated and shows the address to fund", async () => {
    const state = serverState();
    generateServer(state, bumperFixture(), false);
    await renderBumperPage(state);
    await generate();
    expect(toastTexts()).toContain(
      "Bumper generated successfully! Send funds to the bumper address to get started.",
    );
    expect(screen.getByTestId("bumper-address")).toBeTruthy();
    expect(screen.getByRole("tab", { name: /^Active/ }).textContent).toBe("Active (1)");
  });

  it("loads the user's existing bumper for the token and says so", async () => {
    const existing = bumperFixture({ interval: 10, duration: 60, totalBumps: 6, balance: "0.5" });
    const state = serverState({ bumpers: [existing] });
    generateServer(state, existing, true);
    await renderBumperPage(state);
    await generate();
    expect(toastTexts()).toContain("You already have a bumper for this token. It has been loaded.");
    expect(field("Interval").value).toBe("10");
    expect(screen.getByTestId("bumper-balance").textContent).toBe("0.5000 BNB");
  });

  it("says it failed to generate, then the server's reason, when it refuses", async () => {
    postHandler("/api/bumper/generate", () => refused("Token not found on the launchpad"));
    await renderBumperPage();
    await generate();
    expect(toastTexts()).toContain("Failed to generate bumper: Token not found on the launchpad");
    expect(screen.getByTestId("error-banner").textContent).toContain(
      "Failed to generate bumper: Token not found on the launchpad",
    );
  });

  it("says it failed to generate when the server refuses without a reason", async () => {
    postHandler("/api/bumper/generate", () => refused());
    await renderBumperPage();
    await generate();
    expect(toastTexts()).toContain("Failed to generate bumper");
  });

  it("asks to try again when no answer comes", async () => {
    server.use(http.post("/api/bumper/generate", () => HttpResponse.error()));
    await renderBumperPage();
    await generate();
    expect(toastTexts()).toContain("Failed to generate bumper. Please try again.");
  });
});

describe("starting and stopping a bumper", () => {
  it("toasts that the bumper started", async () => {
    const state = serverState({ bumpers: [bumperFixture({ balance: "0.02" })] });
    const sent = postHandler("/api/bumper/:id/start", () => {
      const started = bumperFixture({ balance: "0.02", active: true, status: "active" });
      state.bumpers = [started];
      return HttpResponse.json({ success: true, bumper: started, message: "started" });
    });
    await renderBumperPage(state);
    await selectBumper();
    press("Start bumper");
    await settle();
    await settle();
    expect(sent).toHaveLength(1);
    expect(toastTexts()).toContain("Bumper started successfully!");
    expect(screen.getByRole("button", { name: "Stop bumper" })).toBeTruthy();
  });

  it("cannot be pressed again while the start is on its way", async () => {
    let answer = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.post("/api/bumper/:id/start", async () => {
        await held;
        return refused();
      }),
    );
    await renderBumperPage(serverState({ bumpers: [bumperFixture({ balance: "0.02" })] }));
    await selectBumper();
    press("Start bumper");
    await settle();
    const start = screen.getByRole("button", { name: "Start bumper" }) as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    answer();
    await settle();
  });

  it("toasts that the bumper stopped", async () => {
    const running = bumperFixture({ balance: "0.02", active: true, status: "active" });
    postHandler("/api/bumper/:id/stop", () =>
      HttpResponse.json({ success: true, bumper: running, message: "stopped" }),
    );
    await renderBumperPage(serverState({ bumpers: [running] }));
    await selectBumper();
    press("Stop bumper");
    await settle();
    expect(toastTexts()).toContain("Bumper stopped successfully!");
  });

  it("shows the server's reason when a start is refused", async () => {
    postHandler("/api/bumper/:id/start", () => refused("Balance too low for one bump"));
    await renderBumperPage(serverState({ bumpers: [bumperFixture({ balance: "0.001" })] }));
    await selectBumper();
    press("Start bumper");
    await settle();
    expect(toastTexts()).toContain("Failed to start bumper: Balance too low for one bump");
  });

  it("says it failed to start when the server gives no reason", async () => {
    postHandler("/api/bumper/:id/start", () => refused());
    await renderBumperPage(serverState({ bumpers: [bumperFixture({ balance: "0.02" })] }));
    await selectBumper();
    press("Start bumper");
    await settle();
    expect(toastTexts()).toContain("Failed to start bumper");
  });
});

describe("keeping the selected bumper fresh", () => {
  it("reads a running bumper again every 10 s", async () => {
    const running = bumperFixture({ balance: "0.02", active: true, status: "active" });
    const page = await renderBumperPage(serverState({ bumpers: [running] }));
    await selectBumper();
    const before = page.calls.detail;
    await advance(9_900);
    expect(page.calls.detail).toBe(before);
    await advance(100);
    expect(page.calls.detail).toBe(before + 1);
  });

  it("does not read a stopped bumper again", async () => {
    const page = await renderBumperPage(
      serverState({ bumpers: [bumperFixture({ status: "stopped" })] }),
    );
    await openTabOf("stopped");
    await selectBumper();
    const before = page.calls.detail;
    await advance(30_000);
    expect(page.calls.detail).toBe(before);
  });

  it("says the bumpers could not be loaded when the list fails", async () => {
    await renderBumperPage(serverState(), [http.get("/api/bumper/user", () => refused())]);
    expect(screen.getByText("Failed to load bumpers")).toBeTruthy();
  });
});
