import { describe, expect, it } from "vitest";
import { atMost, zero } from "./row.ts";
import { allMet, runRow, table } from "./runner.ts";

describe("the reliability runner", () => {
  it("counts a row that throws as a missed goal with its message", async () => {
    const outcome = await runRow(
      { name: "broken", what: "throws", run: async () => Promise.reject(new Error("boom")) },
      "reduced",
    );
    expect(outcome.figures).toEqual([
      { figure: "ran to the end", measured: "boom", goal: "no error", met: false },
    ]);
    expect(allMet([outcome])).toBe(false);
  });

  it("counts a row that measures nothing as a missed goal", async () => {
    const outcome = await runRow({ name: "empty", what: "nothing", run: async () => [] }, "full");
    expect(allMet([outcome])).toBe(false);
  });

  it("prints one line per figure with the row's name on its first", async () => {
    const outcome = await runRow(
      {
        name: "two",
        what: "two figures",
        run: async () => [zero("errors", 0), atMost("ms", 120, 100)],
      },
      "full",
    );
    expect(table([outcome]).split("\n").slice(2)).toEqual([
      "| two | errors | 0 | 0 | yes |",
      "|  | ms | 120 | ≤ 100 | **no** |",
    ]);
    expect(allMet([outcome])).toBe(false);
  });
});
