import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compileContracts } from "../../scripts/compileContracts.ts";

describe("generated artifacts", () => {
  it("equal a fresh compile of contracts/*.sol (run `npm run compile -w @bundler/contracts` if not)", () => {
    const checkedIn = readFileSync(path.join(import.meta.dirname, "artifacts.ts"), "utf8");
    expect(compileContracts() === checkedIn).toBe(true);
  }, 120_000);
});
