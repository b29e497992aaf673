import type { TeamRecord } from '../team/teamRecord';
import type { HubClient } from './hubConnection';
import { parseHubRecord } from './hubRecord';

/** How many of the newest matches are ranked. */
const CANDIDATES = 2000;

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
  // The newest CANDIDATES matches are ranked: a word in a quarter of a million memories would
  // otherwise be ranked a quarter of a million times (measured in docs/team.md). Word similarity,
  // costlier than the text rank, is computed for names only.
  const { rows } = await client.query<{ project: string; key: string; record: unknown; author: string; text_rank: number; names_rank: number }>(
    `WITH candidates AS MATERIALIZED (
       SELECT m.project, m.key, m.seq, m.search, m.names, m.record, m.author
       FROM engram.memories m
       WHERE NOT m.deleted AND ($3::text IS NULL OR m.project = $3)
         AND (m.search @@ websearch_to_tsquery('english', $1) OR ($4::text IS NOT NULL AND m.names ILIKE $4))
       ORDER BY m.seq DESC
       LIMIT ${CANDIDATES})
     SELECT project, key, record, author, ts_rank_cd(search, websearch_to_tsquery('english', $1), 1) AS text_rank,
            CASE WHEN $4::text IS NULL THEN 0 ELSE word_similarity($1, names) END AS names_rank
     FROM candidates
     ORDER BY 2 * ts_rank_cd(search, websearch_to_tsquery('english', $1), 1) + CASE WHEN $4::text IS NULL THEN 0 ELSE word_similarity($1, names) END DESC, seq DESC
     LIMIT $2`,
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
