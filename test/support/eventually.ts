/**
 * Polls `probe` until it returns something other than undefined, or fails after `timeoutMs` with
 * what was awaited, the last error and any `context` (e.g. a server's stderr).
 */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, options: { timeoutMs?: number; intervalMs?: number; context?: () => string } = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 150));
  }
  const details = [lastError ? `last error: ${(lastError as Error).message}` : '', options.context?.() ?? ''].filter(Boolean).join('; ');
  throw new Error(`timed out waiting for ${what}${details ? ` (${details})` : ''}`);
}
