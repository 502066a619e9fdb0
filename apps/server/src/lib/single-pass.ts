/**
 * A pass that runs one at a time: a call while one runs shares it, and after `stop()` none
 * starts (the per-block engines' `tick`).
 */
export class SinglePass {
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly pass: () => Promise<void>) {}

  run(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** No new passes; resolves when the current one is done. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running?.catch(() => undefined);
  }

  get isStopped(): boolean {
    return this.stopped;
  }
}
