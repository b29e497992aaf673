/**
 * Schema v9, part 1: usage (a memory shown to an agent, or acted on) gets its own counter. Every
 * hook records usage; moving the memories' generation with it threw away the server's recall
 * caches on every prompt, when only hover (which ranks by usage) needs to know.
 *
 * Part 2: how many memories each full-text index term occurs in, as counted now and then
 * (store/termStats.ts). FTS5 can only tell by walking a term's whole doclist, which costs as much
 * as the search it would steer; recall reads these counts to search a query's selective terms
 * and score its common ones without asking FTS5 to rank tens of thousands of rows.
 */
export const sql = `
ALTER TABLE memory_generation ADD COLUMN usage_n INTEGER NOT NULL DEFAULT 0;
DROP TRIGGER usage_generation_insert;
DROP TRIGGER usage_generation_update;
CREATE TRIGGER usage_generation_insert AFTER INSERT ON memory_usage BEGIN UPDATE memory_generation SET usage_n = usage_n + 1; END;
CREATE TRIGGER usage_generation_update AFTER UPDATE ON memory_usage BEGIN UPDATE memory_generation SET usage_n = usage_n + 1; END;
CREATE TABLE term_stats (
  term TEXT PRIMARY KEY,
  docs INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE term_stats_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  rows INTEGER NOT NULL,
  generation INTEGER NOT NULL,
  counted_at INTEGER NOT NULL
);
`;
