import type { Statement } from 'better-sqlite3';
import { Redactor } from '../secrets/redact';
import { lazyStatements } from './lazyStatements';
import type { SqliteDatabase } from './database';

/** Where the user is in one VS Code window: what hooks add to a prompt's context. */
export interface EditorState {
  readonly windowId: string;
  /** Project-relative. */
  readonly activeFile: string | null;
  /** 0-based. */
  readonly line: number | null;
  readonly character: number | null;
  /** The declaration at the cursor. */
  readonly symbol: string | null;
  /** The selected text, capped. */
  readonly selection: string | null;
  readonly updatedAt: number;
}

/**
 * The editor state the memory server keeps for each window, so a hook reads it in O(1) (one
 * row by window id, else the most recent one) instead of asking the editor. The selection is
 * whatever the user selected, a secret perhaps: it is redacted here, on its way in.
 */
export class EditorStateStore {
  private readonly statements: { put: Statement; byWindow: Statement; latest: Statement };

  constructor(db: SqliteDatabase, private readonly redactor: Redactor = new Redactor()) {
    this.statements = lazyStatements({
      put: () => db.prepare(`INSERT INTO editor_state (window_id, active_file, line, character, symbol, selection, updated_at)
        VALUES (@windowId, @activeFile, @line, @character, @symbol, @selection, @updatedAt)
        ON CONFLICT (window_id) DO UPDATE SET active_file = excluded.active_file, line = excluded.line, character = excluded.character,
          symbol = excluded.symbol, selection = excluded.selection, updated_at = excluded.updated_at`),
      byWindow: () => db.prepare(`SELECT window_id AS windowId, active_file AS activeFile, line, character, symbol, selection, updated_at AS updatedAt
        FROM editor_state WHERE window_id = ?`),
      latest: () => db.prepare(`SELECT window_id AS windowId, active_file AS activeFile, line, character, symbol, selection, updated_at AS updatedAt
        FROM editor_state ORDER BY updated_at DESC LIMIT 1`),
    });
  }

  put(state: EditorState): void {
    this.statements.put.run({ ...state, selection: state.selection === null ? null : this.redactor.text(state.selection) });
  }

  /** The window's state; without a window id (a terminal outside VS Code), the most recent of any window. */
  get(windowId: string | undefined): EditorState | null {
    const row = (windowId ? this.statements.byWindow.get(windowId) : this.statements.latest.get()) as EditorState | undefined;
    return row ?? null;
  }
}
