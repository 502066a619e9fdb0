import { keysAtRestRow } from "./keys-at-rest.row.ts";
import { loadRow } from "./load.row.ts";
import { paymentsRow } from "./payments.row.ts";
import { realtimeRow } from "./realtime.row.ts";
import type { Row } from "./row.ts";

/** Every row of the table, in the order it prints. */
export const ROWS: readonly Row[] = [loadRow, paymentsRow, keysAtRestRow, realtimeRow];
