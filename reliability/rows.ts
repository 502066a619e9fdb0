import { crashesRow } from "./crashes.row.ts";
import type { Row } from "./row.ts";

/** Every row of the table, in the order it prints. */
export const ROWS: readonly Row[] = [crashesRow];
