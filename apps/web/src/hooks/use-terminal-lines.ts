import { useCallback, useRef, useState } from "react";
import type { TerminalLine } from "../components/ui/terminal-log.tsx";
import { formatClock } from "../lib/terminal-line.ts";

/** A live log's lines, each stamped with the local time it arrived. */
export function useTerminalLines() {
  const nextId = useRef(0);
  const [lines, setLines] = useState<TerminalLine[]>([]);

  const append = useCallback((message: string) => {
    nextId.current += 1;
    const line = { id: nextId.current, time: formatClock(new Date()), message };
    setLines((current) => [...current, line]);
  }, []);
  const clear = useCallback(() => setLines([]), []);

  return { lines, append, clear };
}
