import { hostileInputRow } from "./hostile-input.row.ts";
import { otherUsersRow } from "./other-users.row.ts";
import type { Row } from "./row.ts";

/** Every row of the table, in the order it prints. */
export const ROWS: readonly Row[] = [hostileInputRow, otherUsersRow];
