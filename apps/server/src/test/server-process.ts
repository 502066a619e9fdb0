import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { serverArgs } from "../../../../scripts/build-server.mjs";

const root = path.resolve(import.meta.dirname, "../../../..");

/**
 * The real server as a child process on one data dir, to be killed (SIGKILL: no shutdown hook
 * runs) and started again the way a crashed process is: crash tests.
 */
export class ServerProcess {
  private child: ChildProcess | undefined;
  private output = "";
  /** The superadmin key the first start printed. */
  key = "";

  constructor(private readonly env: Record<string, string>) {}

  /** Starts the server; resolves once it is ready. `extra` adds variables for this start only. */
  async start(extra: Record<string, string> = {}): Promise<void> {
    const { DATABASE_URL: _ignored, ...inherited } = process.env;
    const proc = spawn(process.execPath, serverArgs(), {
      cwd: root,
      env: { ...inherited, LOG_LEVEL: "warn", ...this.env, ...extra },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = proc;
    this.output = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`server not ready:\n${this.output}`)),
        90_000,
      );
      const onData = (chunk: Buffer) => {
        this.output += chunk.toString();
        const printed = /Superadmin access key[^:]*: (\S+)/.exec(this.output);
        if (printed?.[1]) this.key = printed[1];
        if (this.output.includes("is ready at")) {
          clearTimeout(timer);
          resolve();
        }
      };
      proc.stdout?.on("data", onData);
      proc.stderr?.on("data", onData);
      proc.once("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`server exited (${code ?? signal}) before it was ready:\n${this.output}`));
      });
    });
  }

  /** What the current (or last) process printed. */
  printed(): string {
    return this.output;
  }

  /** Resolves when the process is gone (killed by a failpoint, say); answers its signal. */
  async exited(timeoutMs = 60_000): Promise<string | null> {
    const proc = this.child;
    if (!proc) return null;
    if (proc.exitCode !== null || proc.signalCode !== null) return proc.signalCode;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the server did not exit")), timeoutMs);
      proc.once("exit", (_code, signal) => {
        clearTimeout(timer);
        this.child = undefined;
        resolve(signal);
      });
    });
  }

  /** A real SIGKILL: no shutdown hook runs. */
  async crash(): Promise<void> {
    this.child?.kill("SIGKILL");
    await this.exited();
    this.child = undefined;
  }

  /** A clean stop (SIGINT). */
  async stop(): Promise<void> {
    this.child?.kill("SIGINT");
    await this.exited();
    this.child = undefined;
  }
}
