import { useCallback, useRef, useState } from "react";
import type { WalletRow } from "../utils/dispersal-form.ts";

type RowInput = Pick<WalletRow, "address" | "amount">;

/**
 * The manual grid's rows: starts with one empty row; import and upload replace the list; a
 * delivered dispersal takes its paid rows off (`retain`).
 */
export function useWalletRows() {
  const nextId = useRef(1);
  const [rows, setRows] = useState<WalletRow[]>([{ id: 0, address: "", amount: "" }]);

  const make = useCallback((input: RowInput): WalletRow => {
    const id = nextId.current;
    nextId.current += 1;
    return { id, ...input };
  }, []);

  const add = useCallback(
    () => setRows((current) => [...current, make({ address: "", amount: "" })]),
    [make],
  );
  const remove = useCallback(
    (id: number) => setRows((current) => current.filter((row) => row.id !== id)),
    [],
  );
  const update = useCallback(
    (id: number, patch: Partial<RowInput>) =>
      setRows((current) => current.map((row) => (row.id === id ? { ...row, ...patch } : row))),
    [],
  );
  const replace = useCallback((inputs: readonly RowInput[]) => setRows(inputs.map(make)), [make]);
  /** Keeps the rows `keep` accepts; with none left, the grid starts over from one empty row. */
  const retain = useCallback(
    (keep: (row: WalletRow) => boolean) =>
      setRows((current) => {
        const kept = current.filter(keep);
        return kept.length > 0 ? kept : [make({ address: "", amount: "" })];
      }),
    [make],
  );

  return { rows, add, remove, update, replace, retain };
}
