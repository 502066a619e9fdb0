import type { DispersalLogLine } from "@bundler/shared";
import { useCallback, useRef, useState } from "react";
import type { TerminalLine } from "../../../components/ui/terminal-log.tsx";
import { formatClock } from "../../../lib/terminal-line.ts";

/**
 * The dispersal's transaction log: live lines stamped as they arrive, and, after a reload,
 * the server's record of the lines before them (`restore`).
 */
export function useDispersalLog() {
  const nextId = useRef(0);
  const [lines, setLines] = useState<TerminalLine[]>([]);

  const line = useCallback((message: string, at: Date): TerminalLine => {
    nextId.current += 1;
    return { id: nextId.current, time: formatClock(at), message };
  }, []);

  const append = useCallback(
    (message: string) => setLines((current) => [...current, line(message, new Date())]),
    [line],
  );
  const clear = useCallback(() => setLines([]), []);

  /**
   * Puts the server's earlier lines before the live ones; a live line that arrived while they
   * were read and that they already hold is not shown twice.
   */
  const restore = useCallback(
    (earlier: readonly DispersalLogLine[]) =>
      setLines((current) => {
        const known = new Set(earlier.map((entry) => entry.message));
        return [
          ...earlier.map((entry) => line(entry.message, new Date(entry.at))),
          ...current.filter((live) => !known.has(live.message)),
        ];
      }),
    [line],
  );

  return { lines, append, clear, restore };
}
