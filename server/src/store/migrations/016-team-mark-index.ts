/**
 * Schema v16: an index of the memories that know of the team file (`meta.team`, team/teamMark.ts).
 * The team follower asks for them at every start and whenever the file changes; without the index
 * that read every memory's meta (~620 ms at 1,000,000 memories, blocking the memory server). It is
 * partial, so it holds only the few marked memories and costs other writes nothing.
 */
export const sql = `
CREATE INDEX memories_team_mark ON memories (json_extract(meta, '$.team.id')) WHERE json_extract(meta, '$.team.id') IS NOT NULL;
`;
