import toast from "react-hot-toast";
import { copyText } from "../../../lib/clipboard.ts";
import { classifyLine, type LineTone, toLineSegments } from "../utils/terminal-line.ts";

export interface TerminalLine {
  id: number;
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
          if (segment.href) {
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
          }
          return (
            <button
              key={key}
              type="button"
              title="Copy transaction hash"
              className="break-all text-left underline decoration-dotted hover:text-accent"
              onClick={async () => {
                if (await copyText(segment.text)) toast.success("Copied to clipboard!");
              }}
            >
              {segment.text}
            </button>
          );
        })}
      </span>
    </li>
  );
}
