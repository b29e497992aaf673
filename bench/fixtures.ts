/** A realistic TypeScript file of about `lines` lines: classes with documented methods. */
export function typescriptFile(lines: number): string {
  const out: string[] = ["import { Pool } from './pool';", ''];
  let c = 0;
  while (out.length < lines) {
    out.push(`/** Service number ${c}: loads and saves records. */`, `export class Service${c} {`, '  private readonly cache = new Map<string, number>();', '');
    for (let m = 0; m < 12 && out.length < lines; m++) {
      out.push(
        `  /** Looks up record ${m} and keeps it warm in the cache. */`,
        `  async method${m}(id: string, pool: Pool): Promise<number> {`,
        `    const cached = this.cache.get(id);`,
        `    if (cached !== undefined) return cached + ${m};`,
        `    const rows = await pool.query('SELECT value FROM t${c} WHERE id = ?', [id]);`,
        `    const value = Number(rows[0]?.value ?? ${m});`,
        `    this.cache.set(id, value);`,
        `    return value;`,
        '  }',
        '',
      );
    }
    out.push('}', '');
    c++;
  }
  return out.slice(0, lines).join('\n') + '\n';
}

export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
