// The team search corpus, made inside PostgreSQL (one INSERT … SELECT, no rows through Node):
// titles of six words drawn from a 4,096-word vocabulary with a skew (word k about as often as
// 1/k of the common ones), so some words are in most memories' neighbourhoods and most are rare,
// as in prose; a body of two more words; a symbol `ModuleN.handleM` each; `projects` projects
// interleaved row by row. Used by the team bench (1,000,000 rows) and the search test.
import type { HubClient } from '../../server/src/hub/hubConnection';

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo'];

/** Word k of the vocabulary: four syllables, the commonest first. */
export const corpusWord = (k: number) => [3, 2, 1, 0].map((d) => SYLLABLES[Math.floor(k / 8 ** d) % 8]).join('');

/** Adds `total` memories to the hub after whatever it holds, and analyses the table. */
export async function loadSearchCorpus(client: HubClient, total: number, projects = 20): Promise<void> {
  const sqlWord = (k: string) => `($2::text[])[1 + ${k}]`;
  // Deterministic and different per memory and position (an uncorrelated random() would be drawn once).
  const pick = (i: number) => `floor(4096 * (abs(hashtext(n::text || ':${i}'))::float8 / 2147483648) ^ 3)::int`;
  await client.query(
    `INSERT INTO engram.memories (project, key, seq, kind, record, hash)
     SELECT 'bench/search-' || (n % ${projects}), 't_' || lpad(n::text, 20, '0'), nextval('engram.change_seq'), 'decision',
       jsonb_build_object('id', 't_' || lpad(n::text, 20, '0'), 'kind', 'decision',
         'title', concat_ws(' ', ${Array.from({ length: 6 }, (_, i) => sqlWord(pick(i))).join(', ')}),
         'body', 'Because ' || ${sqlWord(pick(6))} || ' ' || ${sqlWord(pick(7))} || ' ' || md5(n::text), 'why', null, 'pin', 'none', 'importance', 0.5, 'files', jsonb_build_array('src/m' || (n % 500) || '.ts'),
         'symbols', jsonb_build_array('Module' || (n % 997) || '.handle' || (n % 31)), 'anchor', null, 'meta', '{}'::jsonb, 'source', 'user',
         'createdAt', '2026-01-01T00:00:00.000Z', 'updatedAt', '2026-01-01T00:00:00.000Z'),
       md5(n::text)
     FROM generate_series(1, $1::int) AS n`,
    [total, Array.from({ length: 4096 }, (_, k) => corpusWord(k))],
  );
  await client.query('ANALYZE engram.memories');
}
