/** "just now", "5 min ago", "3 h ago", "12 days ago": for hovers, the memory panel and the timeline. */
export function describeAge(since: number, now: number = Date.now()): string {
  const minutes = Math.max(0, Math.round((now - since) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}
