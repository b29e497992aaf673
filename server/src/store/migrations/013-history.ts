/**
 * Schema v13: the project's git history imported as memories (docs/history.md). Every commit an
 * import has handled (made memories or had nothing to capture), so no commit is read twice; the
 * tips whose history has been handled, so the memory server finds new commits with one
 * `git log HEAD --not <tips>`; and the answer to the one-time offer to import the history.
 */
export const sql = `
CREATE TABLE history_commits (
  sha TEXT PRIMARY KEY,
  memories INTEGER NOT NULL,
  imported_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE history_tips (
  sha TEXT PRIMARY KEY,
  seen_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE history_offer (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  answer TEXT NOT NULL CHECK (answer IN ('import', 'decline')),
  answered_at INTEGER NOT NULL
);
`;
