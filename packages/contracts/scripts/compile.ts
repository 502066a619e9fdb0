import { writeFileSync } from "node:fs";
import path from "node:path";
import { compileContracts } from "./compileContracts.ts";

const target = path.resolve(import.meta.dirname, "../src/generated/artifacts.ts");
const started = performance.now();
writeFileSync(target, compileContracts());
console.log(
  `wrote ${path.relative(process.cwd(), target)} in ${Math.round(performance.now() - started)} ms`,
);
