/** Resolves on the event loop's next turn: a sliced job's pause between slices. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs `job` `firstMs` after the server starts and every `everyMs` after, never two at once
 * (a slow run is not stacked on); the timers do not keep the process alive.
 */
export function everyNowAndThen(firstMs: number, everyMs: number, job: () => Promise<void>): void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await job();
    } finally {
      running = false;
    }
  };
  setTimeout(() => void run(), firstMs).unref();
  setInterval(() => void run(), everyMs).unref();
}
