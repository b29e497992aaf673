/**
 * Schema v6: indexes for the queries that filter on status first — eviction ranking (status,
 * pin, kind, importance, updated_at: read from the index, not from rows with their bodies) and
 * the most recent active memories.
 */
export const sql = `
CREATE INDEX memories_eviction ON memories (status, pin, kind, importance, updated_at);
CREATE INDEX memories_status_updated ON memories (status, updated_at);
`;
