import type { Figure, Mode, Row } from "./row.ts";

export interface RowOutcome {
  row: Row;
  figures: Figure[];
  seconds: number;
}

const errorFigure = (error: unknown): Figure => ({
  figure: "ran to the end",
  measured: error instanceof Error ? (error.message.split("\n")[0] ?? "failed") : String(error),
  goal: "no error",
  met: false,
});

/** Runs one row; a row that throws is a missed goal, not a crash of the run. */
export const runRow = async (
  row: Row,
  mode: Mode,
  log: (line: string) => void = () => {},
): Promise<RowOutcome> => {
  const started = performance.now();
  let figures: Figure[];
  try {
    figures = await row.run({ mode, databaseUrl: process.env.DATABASE_URL || undefined, log });
    if (figures.length === 0) figures = [errorFigure(new Error("the row measured nothing"))];
  } catch (error) {
    log(`${row.name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    figures = [errorFigure(error)];
  }
  return { row, figures, seconds: (performance.now() - started) / 1000 };
};

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

/** The table, as Markdown (the README's "What it survives" pastes it). */
export const table = (outcomes: readonly RowOutcome[]): string => {
  const lines = ["| row | figure | measured | goal | met |", "|---|---|---|---|---|"];
  for (const { row, figures } of outcomes)
    for (const [index, figure] of figures.entries())
      lines.push(
        `| ${index === 0 ? row.name : ""} | ${cell(figure.figure)} | ${cell(figure.measured)} | ${cell(figure.goal)} | ${figure.met ? "yes" : "**no**"} |`,
      );
  return lines.join("\n");
};

export const allMet = (outcomes: readonly RowOutcome[]): boolean =>
  outcomes.every(({ figures }) => figures.every((figure) => figure.met));
