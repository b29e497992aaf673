// Issue 24, team search of every project: the candidates (the newest 2,000 matches, then ranked)
// are found by sampling the newest rows first, then walking back, reading a bounded range or
// every match (server/src/hub/teamSearch.ts). Whatever the path, the answer must be the one a
// plain reading of every match gives. A real PostgreSQL with 160,000 memories: enough for each
// path to be taken (a bounded range needs a word rare enough and a hub three times its span).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectHub, type HubClient } from '../../server/src/hub/hubConnection';
import { initHub } from '../../server/src/hub/hubSchema';
import { searchTeam } from '../../server/src/hub/teamSearch';
import { corpusWord, loadSearchCorpus } from '../support/hubSearchCorpus';
import { startPostgres, type PostgresCluster } from '../support/postgres';

const TOTAL = 160_000;
const PROBE = 4096;

describe('team search of every project', { timeout: 180_000 }, () => {
  let pg: PostgresCluster;
  let admin: HubClient;

  before(async () => {
    pg = await startPostgres();
    await pg.sql('postgres', 'CREATE DATABASE hub');
    admin = await connectHub(pg.url('hub'), { timeoutMs: 120_000 });
    await initHub(admin);
    await loadSearchCorpus(admin, TOTAL);
    // A word the newest rows are full of and older ones hold one in a hundred: the sample
    // overrates it, so its bounded range holds too few and the rest must be walked back to.
    await admin.query(`UPDATE engram.memories SET record = jsonb_set(record, '{title}', to_jsonb((record->>'title') || ' zephyr')) WHERE seq % 100 = 7`);
    await admin.query(`UPDATE engram.memories SET record = jsonb_set(record, '{title}', to_jsonb((record->>'title') || ' zephyr')) WHERE seq > (SELECT max(seq) - ${PROBE} FROM engram.memories) AND seq % 20 = 3`);
    await admin.query('ANALYZE engram.memories');
  });

  after(async () => {
    await admin?.end();
    pg?.destroy();
  });

  /** Every match read, the newest 2,000 (names: 500) kept and ranked as team search ranks: the reference answer. */
  async function plainly(text: string, pattern: string | null): Promise<string[]> {
    const { rows } = await admin.query<{ key: string }>(
      `SELECT key FROM (
         SELECT key, seq, search, names FROM engram.memories
         WHERE NOT deleted AND (search @@ websearch_to_tsquery('english', $1) OR ($2::text IS NOT NULL AND names ILIKE $2))
         ORDER BY seq DESC LIMIT $3) c
       ORDER BY 2 * ts_rank_cd(search, websearch_to_tsquery('english', $1), 1) + CASE WHEN $2::text IS NULL THEN 0 ELSE word_similarity($1, names) END DESC, seq DESC
       LIMIT $3`,
      [text, pattern, pattern === null ? 2000 : 500],
    );
    return rows.map((r) => r.key);
  }

  /** How often a word is among the newest rows, and in all of them. */
  async function shares(text: string): Promise<{ recent: number; overall: number }> {
    const { rows } = await admin.query<{ recent: number; overall: number }>(
      `SELECT (SELECT count(*) FILTER (WHERE search @@ websearch_to_tsquery('english', $1)) FROM (SELECT search FROM engram.memories ORDER BY seq DESC LIMIT ${PROBE}) n)::float8 / ${PROBE} AS recent,
              (SELECT count(*) FROM engram.memories WHERE search @@ websearch_to_tsquery('english', $1))::float8 / ${TOTAL} AS overall`,
      [text],
    );
    return rows[0]!;
  }

  it('covers every path: a common word, middling ones, rare ones and one the newest rows overrate', async () => {
    const common = await shares(corpusWord(3));
    assert.ok(common.recent >= 1 / 16, `word 3 is common among the newest rows (${common.recent})`);
    // A bounded range: rarer than 1 in 16 among the newest rows, and its span (2,000 matches and
    // a quarter) under a third of the hub.
    const middling = await shares(corpusWord(5));
    assert.ok(middling.recent < 1 / 16 && (2000 / middling.recent) * 1.25 * 3 < TOTAL, `word 5 takes a bounded range (${JSON.stringify(middling)})`);
    const rare = await shares(corpusWord(2000));
    assert.ok((2000 / Math.max(rare.recent, 1 / PROBE)) * 1.25 * 3 >= TOTAL, `word 2,000 reads every match (${JSON.stringify(rare)})`);
    const overrated = await shares('zephyr');
    assert.ok(overrated.recent > 3 * overrated.overall && overrated.recent < 1 / 16, `zephyr is overrated by the newest rows (${JSON.stringify(overrated)})`);
  });

  for (const [label, text] of [
    ['a common word (a walk back)', corpusWord(3)],
    ['a word in 1 memory of 20 (a bounded range)', corpusWord(5)],
    ['a word in 1 memory of 70 (every match)', corpusWord(40)],
    ['a word in 1 memory of 200', corpusWord(120)],
    ['a rare word (every match)', corpusWord(2000)],
    ['two words', `${corpusWord(5)} ${corpusWord(7)}`],
    ['a word the newest rows overrate (a bounded range, then a walk back)', 'zephyr'],
    ['a word nowhere', 'xylophone'],
  ] as const) {
    it(`finds what reading every match finds: ${label}`, async () => {
      // Every candidate asked for, so a candidate missed or extra shows, not only a top ten.
      const hits = await searchTeam(admin, { text, project: null, limit: 2000 });
      const expected = await plainly(text, null);
      assert.deepEqual(hits.map((h) => h.key), expected);
      assert.equal(hits.length > 0, text !== 'xylophone');
      assert.ok(hits.every((h) => h.explanation.text > 0 && h.explanation.names === 0 && h.record.kind === 'decision'));
    });
  }

  it('finds names by fragment across projects, ranked by similarity among the newest 500 matches', async () => {
    for (const text of ['Module42.handle7', 'handle17']) {
      const hits = await searchTeam(admin, { text, project: null, limit: 500 });
      assert.deepEqual(hits.map((h) => h.key), await plainly(text, `%${text}%`), text);
      assert.ok(hits.length > 0 && hits.every((h) => h.explanation.names > 0), text);
    }
  });
});
