/**
 * Schema v18: an index of each agent session's memories by status and last change. The timeline's
 * list of agent sessions counts each session's memories that are not forgotten and finds its last
 * change: that read every memory's row (~3 s at 1,000,000 memories, each time the timeline's
 * filters open); with it, index entries only (~20 ms). `memories_session` stays: recall walks a
 * session's memories in rowid order through it (the turns around a match).
 */
export const sql = `
CREATE INDEX memories_session_activity ON memories (session_id, status, updated_at);
`;
