/** One periodic piece of the memory server's background work. */
export interface BackgroundJob {
  /** Named in the log when a run fails. */
  readonly name: string;
  /** After the server starts (0: at once). */
  readonly firstMs: number;
  readonly everyMs: number;
  readonly run: () => void | Promise<void>;
}

/**
 * Every timer of the memory server, in one table (server.ts lists the jobs): each job runs
 * `firstMs` after start and every `everyMs` after, never two runs of one job at once (a slow run
 * is not stacked on), a failure logged and the next run made as usual. The timers do not keep
 * the process alive, and `stop` ends them all.
 */
export class BackgroundJobs {
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly jobs: BackgroundJob[] = [];

  constructor(private readonly log: (message: string) => void) {}

  start(jobs: readonly BackgroundJob[]): void {
    for (const job of jobs) {
      this.jobs.push(job);
      let running = false;
      const run = async () => {
        if (running) return;
        running = true;
        try {
          await job.run();
        } catch (error) {
          this.log(`Background job "${job.name}" failed: ${(error as Error).message}`);
        } finally {
          running = false;
        }
      };
      if (job.firstMs === 0) void run();
      else this.timers.push(setTimeout(() => void run(), job.firstMs).unref());
      this.timers.push(setInterval(() => void run(), job.everyMs).unref());
    }
  }

  /** The jobs started, in order: what the server does in the background. */
  names(): string[] {
    return this.jobs.map((job) => job.name);
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.length = 0;
  }
}
