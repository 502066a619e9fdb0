import { crashesRow } from "./crashes.row.ts";
import { hostileInputRow } from "./hostile-input.row.ts";
import { keysAtRestRow } from "./keys-at-rest.row.ts";
import { loadRow } from "./load.row.ts";
import { otherUsersRow } from "./other-users.row.ts";
import { paymentsRow } from "./payments.row.ts";
import { realtimeRow } from "./realtime.row.ts";
import type { Row } from "./row.ts";
import { unreliableRpcRow } from "./unreliable-rpc.row.ts";

/** Every row of the table, in the order the issue lists them. */
export const ROWS: readonly Row[] = [
  loadRow,
  hostileInputRow,
  otherUsersRow,
  crashesRow,
  paymentsRow,
  keysAtRestRow,
  realtimeRow,
  unreliableRpcRow,
];
