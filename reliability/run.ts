// `npm run reliability [-- --rows=load,crashes] [--mode=reduced]`: runs the rows one after
// another, prints the table, and exits non-zero when any figure misses its goal.
import { ROWS } from "./rows.ts";
import { allMet, type RowOutcome, runRow, table } from "./runner.ts";

const option = (name: string) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);

const mode = option("mode") === "reduced" ? "reduced" : "full";
const wanted = option("rows")?.split(",").filter(Boolean);
const unknown = wanted?.filter((name) => !ROWS.some((row) => row.name === name)) ?? [];
if (unknown.length > 0) {
  process.stderr.write(
    `unknown rows: ${unknown.join(", ")} (known: ${ROWS.map((row) => row.name).join(", ")})\n`,
  );
  process.exit(2);
}
const rows = wanted ? ROWS.filter((row) => wanted.includes(row.name)) : ROWS;

process.stdout.write(
  `reliability, ${mode} run, ${rows.length} rows, on PGlite${process.env.DATABASE_URL ? " and Postgres (DATABASE_URL)" : " (set DATABASE_URL to add Postgres)"}\n`,
);
const outcomes: RowOutcome[] = [];
for (const row of rows) {
  process.stdout.write(`\n--- ${row.name}: ${row.what}\n`);
  const outcome = await runRow(row, mode, (line) => process.stdout.write(`  ${line}\n`));
  process.stdout.write(`${table([outcome])}\n(${outcome.seconds.toFixed(0)} s)\n`);
  outcomes.push(outcome);
}
process.stdout.write(`\n${table(outcomes)}\n`);
const met = allMet(outcomes);
process.stdout.write(met ? "\nevery goal met\n" : "\nsome goals were missed\n");
process.exit(met ? 0 : 1);
