import type { TeamRecord } from '../team/teamRecord';
import type { HubClient } from './hubConnection';
import { parseHubRecord } from './hubRecord';

/** How many of the newest matches of words are ranked. */
const CANDIDATES = 2000;
/**
 * How many of the newest matches of a name are ranked: names rank by word similarity, close to
 * all or nothing (a whole name or a fragment of one), so more candidates change little and each
 * costs a similarity (~7 µs).
 */
const NAME_CANDIDATES = 500;
/** How many of the newest rows a search of every project reads to learn how common its words are. */
const PROBE_ROWS = 4096;

export interface TeamSearchQuery {
  readonly text: string;
  /** One project (its hub name), or null: every project this role may read (row-level security decides). */
  readonly project: string | null;
  readonly limit: number;
}

export interface TeamSearchHit {
  readonly project: string;
  readonly key: string;
  readonly record: TeamRecord;
  readonly author: string;
  readonly score: number;
  /** Why it ranked: the full-text rank of its words and the trigram similarity of its names. */
  readonly explanation: { readonly text: number; readonly names: number };
}

const WORDS = `m.search @@ websearch_to_tsquery('english', $1)`;

/**
 * Searches the hub: PostgreSQL full text (title weighted over why, names and body, English
 * stemming) for words; for identifiers and their fragments (`parseExpr`, `Parser.parse`) a
 * substring match over titles and symbols through a pg_trgm index, ranked by word similarity.
 * Both GIN indexes lead with the project. Tombstones never match.
 */
export async function searchTeam(client: HubClient, query: TeamSearchQuery): Promise<TeamSearchHit[]> {
  const text = query.text.trim();
  if (!text) return [];
  // A name (with . _ ( ) : #, a digit or an inner capital) is also looked for inside titles and
  // symbols, as a fragment: `handleRequest` finds `Server.handleRequest`. The trigram index makes
  // that substring search fast; word similarity only ranks, it is too loose to select. A plain
  // word is a word: full text only (as a fragment it cost 26 ms for 50 matches at 1,000,000).
  const identifier = /[._():#\d]|[a-z][A-Z]/.test(text);
  const pattern = identifier ? `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  // The newest matches are ranked: a word in a quarter of a million memories would otherwise be
  // ranked a quarter of a million times (measured in docs/team.md). Word similarity, costlier
  // than the text rank, is computed for names only.
  const candidates = pattern === null && query.project === null ? await newestWordMatchesEverywhere(client, text) : NEWEST_MATCHES(pattern === null ? CANDIDATES : NAME_CANDIDATES);
  const { rows } = await client.query<{ project: string; key: string; record: unknown; author: string; text_rank: number; names_rank: number }>(
    `WITH ${candidates},
     ranked AS (
       SELECT project, key, seq, ts_rank_cd(search, websearch_to_tsquery('english', $1), 1) AS text_rank,
              CASE WHEN $4::text IS NULL THEN 0 ELSE word_similarity($1, names) END AS names_rank
       FROM candidates)
     SELECT r.project, r.key, m.record, m.author, r.text_rank, r.names_rank
     FROM (SELECT * FROM ranked ORDER BY 2 * text_rank + names_rank DESC, seq DESC LIMIT $2) r
     JOIN engram.memories m ON m.project = r.project AND m.key = r.key
     ORDER BY 2 * r.text_rank + r.names_rank DESC, r.seq DESC`,
    [text, query.limit, query.project, pattern],
  );
  return rows.flatMap((row) => {
    const parsed = parseHubRecord(row.record);
    if (!parsed.ok) return [];
    const textRank = Number(row.text_rank);
    const names = Number(row.names_rank);
    return [{ project: row.project, key: row.key, record: parsed.record, author: row.author, score: Math.round((2 * textRank + names) * 1000) / 1000, explanation: { text: textRank, names } }];
  });
}

/** SQL for a `candidates` CTE over the parameters $1 text, $3 project and $4 name pattern. */
type Candidates = string;

/**
 * The newest matches, walking back from the newest row (`memories_newest`) or reading every match
 * through a GIN index, whichever PostgreSQL's estimate prefers: right in one project (the GIN
 * indexes lead with it) and for names.
 */
const NEWEST_MATCHES = (limit: number): Candidates => `candidates AS MATERIALIZED (
       SELECT m.project, m.key, m.seq, m.search, m.names
       FROM engram.memories m
       WHERE NOT m.deleted AND ($3::text IS NULL OR m.project = $3)
         AND (${WORDS} OR ($4::text IS NOT NULL AND m.names ILIKE $4))
       ORDER BY m.seq DESC
       LIMIT ${limit})`;

/**
 * The newest matches of words in every project. Neither plan PostgreSQL chooses between is fast
 * for a word of middling frequency: walking back reads ~140,000 rows to find 2,000 matches of a
 * word in one memory of 70, and reading every match through the GIN index fetches 14,000 rows,
 * both at 1,000,000. So the newest rows are sampled first: a common word is walked back to (it is
 * soon found); a rare one is read through the GIN index (it has few matches); between them, the
 * search is bounded to the newest rows that should hold the candidates, with a quarter to spare,
 * and the GIN index's matches meet the seq index's range before any row is read.
 */
async function newestWordMatchesEverywhere(client: HubClient, text: string): Promise<Candidates> {
  // The newest rows this role may read, walked back through the seq index: no GIN bitmap to build.
  const { rows } = await client.query<{ newest: string | null; oldest: string | null; seen: number }>(
    `SELECT max(m.seq)::text AS newest, min(m.seq)::text AS oldest, (count(*) FILTER (WHERE ${WORDS}))::int AS seen
     FROM (SELECT seq, search FROM engram.memories WHERE NOT deleted ORDER BY seq DESC LIMIT ${PROBE_ROWS}) AS m`,
    [text],
  );
  const sample = rows[0];
  if (!sample || sample.newest === null || sample.oldest === null || sample.seen >= PROBE_ROWS / 16) return NEWEST_MATCHES(CANDIDATES);
  const newest = BigInt(sample.newest);
  // Matches per seq number (seqs skip numbers: other projects' rows, overwritten versions); one
  // more match than seen, so a word not among the newest rows is taken as rare, not absent.
  const perSeq = (sample.seen + 1) / Number(newest - BigInt(sample.oldest) + 1n);
  const span = BigInt(Math.ceil((CANDIDATES / perSeq) * 1.25));
  // Past a third of the hub, reading the range costs more than fetching every match.
  const bound = span * 3n < newest ? newest - span : null;
  // Every match in the span (no LIMIT inside, so no walk), then the newest of them; should the
  // span hold fewer than CANDIDATES (the sample misjudged the word), the rest are walked back to
  // from below it, so the candidates are the newest matches whatever the sample said.
  const matches = `SELECT m.project, m.key, m.seq, m.search, m.names FROM engram.memories m WHERE NOT m.deleted AND ($3::text IS NULL OR m.project = $3) AND ${WORDS}`;
  const recent = `recent AS MATERIALIZED (${matches}${bound === null ? '' : ` AND m.seq > ${bound}`})`;
  if (bound === null) return `${recent},\n     candidates AS (SELECT * FROM recent ORDER BY seq DESC LIMIT ${CANDIDATES})`;
  return `${recent},
     candidates AS MATERIALIZED (
       (SELECT * FROM recent ORDER BY seq DESC LIMIT ${CANDIDATES})
       UNION ALL
       (${matches} AND m.seq <= ${bound} AND (SELECT count(*) FROM recent) < ${CANDIDATES}
        ORDER BY m.seq DESC LIMIT greatest(0, ${CANDIDATES} - (SELECT count(*) FROM recent))))`;
}
