/**
 * Schema v4: what a transcript reader carries from one read of a file to the next (the turn in
 * progress, tool calls awaiting results, failures awaiting a fix, the last compaction), so a
 * restart between reads loses no why and no gotcha. JSON owned by the transcripts module.
 */
export const sql = `
ALTER TABLE ingest_offsets ADD COLUMN reader_state TEXT NOT NULL DEFAULT '{}';
`;
