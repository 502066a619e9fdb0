import { describe, expect, it } from "vitest";
import { ROWS } from "./rows.ts";
import { runRow, table } from "./runner.ts";

// The reduced run of every row, inside `npm test`: the same checks as `npm run reliability`,
// smaller. A missed goal fails the test and prints the row's table.
describe("the reduced reliability run", () => {
  for (const row of ROWS)
    it(`${row.name}: ${row.what}`, async () => {
      const outcome = await runRow(row, "reduced", (line) => process.stdout.write(`  ${line}\n`));
      process.stdout.write(`${table([outcome])}\n`);
      const missed = outcome.figures.filter((figure) => !figure.met);
      expect(missed, table([outcome])).toEqual([]);
    });
});
