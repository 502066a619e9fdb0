import { type ReactNode, useEffect, useRef } from "react";
import { classifyLine, type LineTone, toLineSegments } from "../../lib/terminal-line.ts";
import { TxHash } from "./tx-hash.tsx";

export interface TerminalLine {
  id: number;
  /** HH:MM:SS, when the line arrived. */
  time: string;
  message: string;
}

const TONES: Record<LineTone, string> = {
  success: "text-ok",
  error: "text-bad",
  passed: "text-sky-400",
  plain: "text-fg",
};

/** One log line: timestamp, colored text, links and transaction hashes. */
export function TerminalLineView({
  line,
  explorerUrl,
}: {
  line: TerminalLine;
  explorerUrl: string | null;
}) {
  const tone = classifyLine(line.message);
  return (
    <li className="flex gap-2" data-testid="terminal-line" data-tone={tone}>
      <span className="shrink-0 text-faint">[{line.time}]</span>
      <span className={`min-w-0 break-all ${TONES[tone]}`}>
        {toLineSegments(line.message, explorerUrl).map((segment, index) => {
          const key = `${index}:${segment.text}`;
          if (segment.kind === "text") return <span key={key}>{segment.text}</span>;
          if (segment.kind === "tx") {
            return <TxHash key={key} hash={segment.text} explorerUrl={explorerUrl} />;
          }
          return (
            <a
              key={key}
              href={segment.href}
              target="_blank"
              rel="noreferrer"
              className="underline decoration-dotted hover:text-accent"
            >
              {segment.text}
            </a>
          );
        })}
      </span>
    </li>
  );
}

export interface TerminalLogProps {
  lines: readonly TerminalLine[];
  explorerUrl: string | null;
  /** The log's accessible name, e.g. "Launch log". */
  label: string;
  /** Shown while there are no lines. */
  emptyText?: string;
  /** A line shown above everything else instead of the empty text (e.g. no live updates). */
  notice?: ReactNode;
  className?: string;
}

/** A scrolling terminal log that follows its newest line. */
export function TerminalLog({
  lines,
  explorerUrl,
  label,
  emptyText = "Waiting for updates...",
  notice,
  className = "h-72",
}: TerminalLogProps) {
  const logRef = useRef<HTMLOListElement>(null);
  const lineCount = lines.length;
  useEffect(() => {
    const log = logRef.current;
    if (log && lineCount > 0) log.scrollTop = log.scrollHeight;
  }, [lineCount]);

  return (
    <ol
      ref={logRef}
      aria-live="polite"
      aria-label={label}
      className={`flex flex-col gap-1 overflow-y-auto rounded-sm border border-line bg-ink p-3 text-xs ${className}`}
    >
      {notice}
      {!notice && lineCount === 0 && <li className="text-faint">{emptyText}</li>}
      {lines.map((line) => (
        <TerminalLineView key={line.id} line={line} explorerUrl={explorerUrl} />
      ))}
    </ol>
  );
}
