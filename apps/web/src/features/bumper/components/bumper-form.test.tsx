import { screen } from "@testing-library/react";
import { HttpResponse } from "msw";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { bumperFixture, TOKEN } from "../../../testing/bumper-handlers.ts";
import { settle } from "../../../testing/render.tsx";
import { field, postHandler, press, renderBumperPage, type } from "./bumper-test-utils.tsx";

const generated = () =>
  HttpResponse.json({
    success: true,
    bumper: bumperFixture(),
    existingBumper: false,
    message: "ok",
  });

beforeEach(() => {
  vi.useFakeTimers();
});

describe("the bumper's config form", () => {
  it("starts with an interval of 5 minutes, a duration of 30 minutes and a buy of 0.01 BNB", async () => {
    await renderBumperPage();
    expect(field("Interval").value).toBe("5");
    expect(field("Duration").value).toBe("30");
    expect(field("Buy size").value).toBe("0.01");
    expect(field("Interval unit").value).toBe("minutes");
    expect(field("Duration unit").value).toBe("minutes");
  });

  it("takes buy sizes from 0.001 BNB in steps of 0.001", async () => {
    await renderBumperPage();
    expect(field("Buy size").min).toBe("0.001");
    expect(field("Buy size").step).toBe("0.001");
  });

  it.each([
    ["no token address", {}, "Token address is required"],
    ["a malformed token address", { "Token address": "0x1234" }, "Invalid address format"],
    ["an interval of 0", { Interval: "0" }, "Interval must be greater than 0"],
    [
      "an interval under a minute",
      { Interval: "30", "Interval unit": "seconds" },
      "Interval must be at least 1 minute",
    ],
    ["a duration of 0", { Duration: "0" }, "Duration must be greater than 0"],
    ["a duration over a day", { Duration: "1441" }, "Duration cannot exceed 1 day"],
    [
      "a duration no longer than the interval",
      { Duration: "5" },
      "Duration must be greater than interval",
    ],
    ["a buy size of 0", { "Buy size": "0" }, "Buy size must be greater than 0"],
    ["a buy size under 0.001 BNB", { "Buy size": "0.0005" }, "Buy size must be at least 0.001 BNB"],
    ["a buy size over 1 BNB", { "Buy size": "1.5" }, "Buy size cannot exceed 1 BNB"],
  ])("says what is wrong with %s and sends nothing", async (_case, values, message) => {
    const sent = postHandler("/api/bumper/generate", generated);
    await renderBumperPage();
    const withToken: Record<string, string> =
      "Token address" in values || message === "Token address is required"
        ? values
        : { "Token address": TOKEN, ...values };
    for (const [label, value] of Object.entries(withToken)) type(label, value);
    press("Generate bumper");
    await settle();
    expect(screen.getByRole("alert").textContent).toBe(message);
    expect(sent).toEqual([]);
  });

  it("sends the interval and duration in minutes whatever units they were typed in", async () => {
    const sent = postHandler("/api/bumper/generate", generated);
    await renderBumperPage();
    type("Token address", TOKEN);
    type("Interval", "90");
    type("Interval unit", "seconds");
    type("Duration", "2");
    type("Duration unit", "hours");
    type("Buy size", "0.02");
    press("Generate bumper");
    await settle();
    expect(sent).toEqual([{ targetToken: TOKEN, interval: 1.5, duration: 120, buySize: 0.02 }]);
  });

  it("clamps the duration to one day when its new unit makes it longer", async () => {
    await renderBumperPage();
    type("Duration unit", "hours");
    expect(field("Duration").value).toBe("24");
  });

  it("keeps the duration's number when its new unit still fits in a day", async () => {
    await renderBumperPage();
    type("Duration unit", "seconds");
    expect(field("Duration").value).toBe("30");
  });

  it("shows how many bumps the settings make and the exact BNB they need, tip, gas and fees included", async () => {
    await renderBumperPage();
    // 0.01 + 6 × (0.0005 tip + 0.0007 gas + 0.0002 fees)
    expect(screen.getByTestId("bumper-plan").textContent).toBe("6 bumps · fund 0.0184 BNB");
  });

  it("says what each bump pays besides its buy: the builder's tip, gas and trading fees", async () => {
    await renderBumperPage();
    expect(screen.getByTestId("bumper-plan-parts").textContent).toBe(
      "The buy size 0.0100 BNB once, then each bump: builder tip 0.0005 BNB, gas up to 0.0007 BNB at today's gas price, trading fees 0.0002 BNB.",
    );
  });

  it("locks the fields once a bumper is loaded, showing its settings", async () => {
    postHandler("/api/bumper/generate", generated);
    await renderBumperPage();
    type("Token address", TOKEN);
    press("Generate bumper");
    await settle();
    await settle();
    for (const label of ["Token address", "Interval", "Duration", "Buy size", "Duration unit"])
      expect(field(label).disabled).toBe(true);
    expect(field("Token address").value).toBe(TOKEN);
    expect(screen.queryByRole("button", { name: "Generate bumper" })).toBeNull();
  });
});
