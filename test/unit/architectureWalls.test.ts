import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ESLint } from 'eslint';
import { REPO_ROOT } from '../support/engramProcess';

/**
 * The walls of docs/architecture.md ("Architecture invariants") are lint rules (eslint.config.mjs)
 * that `npm test` runs. Each case plants one import in a file that does not exist, at a path of
 * the part it would live in, and lints it with the repository's own configuration.
 */
describe('the architecture walls, as the lint enforces them', () => {
  let eslint: ESLint;
  before(() => {
    eslint = new ESLint({ cwd: REPO_ROOT });
  });

  /** The messages of the boundary rule for `code` as the file `filePath`. */
  async function walls(filePath: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath });
    assert.equal(result!.fatalErrorCount, 0, JSON.stringify(result!.messages));
    return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
  }

  it('stops the core from importing an entry point (lsp, mcp, cli, hooks)', async () => {
    assert.match((await walls('server/src/store/planted.ts', "import { startServer } from '../lsp/server';\nvoid startServer;\n"))[0]!, /core never imports an entry point/);
    assert.equal((await walls('server/src/transcripts/extract/planted.ts', "import { x } from '../../cli/command';\nvoid x;\n")).length, 1);
    assert.equal((await walls('server/src/actions/planted.ts', "import { x } from '../mcp/toolResult';\nvoid x;\n")).length, 1);
    assert.equal((await walls('server/src/project.ts', "import { x } from './hooks/runHook';\nvoid x;\n")).length, 1, 'project.ts is core too');
  });

  it('lets the core import the core, and entry points import the core and one another', async () => {
    assert.deepEqual(await walls('server/src/store/planted.ts', "import { x } from '../memory/types';\nimport { y } from './database';\nvoid x; void y;\n"), []);
    assert.deepEqual(await walls('server/src/lsp/planted.ts', "import { x } from '../actions/pin';\nimport { y } from '../mcp/tools/recall';\nvoid x; void y;\n"), []);
    assert.deepEqual(await walls('server/src/cli/commands/planted.ts', "import { x } from '../../lsp/server';\nimport { y } from '../../hooks/answerHook';\nvoid x; void y;\n"), []);
  });

  it('keeps the store the floor: it imports none of the parts above it', async () => {
    assert.match((await walls('server/src/store/planted.ts', "import { recall } from '../recall/recall';\nvoid recall;\n"))[0]!, /store is the floor/);
    assert.equal((await walls('server/src/store/textIndex/planted.ts', "import { memoryValue } from '../../capacity/value';\nvoid memoryValue;\n")).length, 1);
    assert.equal((await walls('server/src/store/planted.ts', "import { x } from '../capture/recordChange';\nvoid x;\n")).length, 1);
    assert.deepEqual(await walls('server/src/store/planted.ts', "import { Redactor } from '../secrets/redact';\nimport { engramHome } from '../paths/engramPaths';\nvoid Redactor; void engramHome;\n"), []);
    assert.match((await walls('server/src/store/planted.ts', "import { x } from '../lsp/server';\nvoid x;\n"))[0]!, /core never imports an entry point/);
  });

  it('keeps the memory server below the CLI and the hooks', async () => {
    assert.match((await walls('server/src/lsp/planted.ts', "import { runCommand } from '../cli/runCommand';\nvoid runCommand;\n"))[0]!, /sits below the CLI/);
    assert.equal((await walls('server/src/lsp/planted.ts', "import { answerHook } from '../hooks/answerHook';\nvoid answerHook;\n")).length, 1);
  });

  it('keeps the database out of the extension host', async () => {
    assert.match((await walls('client/src/planted.ts', "import Database from 'better-sqlite3';\nvoid Database;\n"))[0]!, /never opens the database/);
    assert.equal((await walls('client/src/views/planted.ts', "import { openDatabase } from '../../../server/src/store/database';\nvoid openDatabase;\n")).length, 1);
    assert.equal((await walls('client/src/planted.ts', "import { openProject } from '../../server/src/project';\nvoid openProject;\n")).length, 1);
    assert.deepEqual(await walls('client/src/planted.ts', "import { Commands } from '../../contracts/protocol';\nvoid Commands;\n"), [], 'the contracts are what it imports');
  });

  it('keeps the webview to its own code and the wire contracts', async () => {
    assert.match((await walls('webview/src/sidebar/planted.ts', "import { readFileSync } from 'node:fs';\nvoid readFileSync;\n"))[0]!, /browser sandbox/);
    assert.equal((await walls('webview/src/sidebar/planted.ts', "import { z } from 'zod';\nvoid z;\n")).length, 1, 'no npm package');
    assert.equal((await walls('webview/src/timeline/planted.ts', "import { x } from '../../../server/src/paths/engramPaths';\nvoid x;\n")).length, 1);
    assert.equal((await walls('webview/src/timeline/planted.ts', "import { x } from '../../../client/src/commands';\nvoid x;\n")).length, 1);
    assert.equal((await walls('webview/src/timeline/planted.ts', "import { provideVSCodeDesignSystem } from '@vscode/webview-ui-toolkit';\nvoid provideVSCodeDesignSystem;\n")).length, 1, 'the toolkit only through its seam');
    assert.deepEqual(await walls('webview/src/shared/toolkit.ts', "import { provideVSCodeDesignSystem } from '@vscode/webview-ui-toolkit';\nvoid provideVSCodeDesignSystem;\n"), []);
    assert.deepEqual(await walls('webview/src/timeline/planted.ts', "import type { ViewMemory } from '../../../contracts/viewProtocol';\nimport { MEMORY_KINDS } from '../../../server/src/memory/types';\nimport { h } from '../shared/dom';\nvoid MEMORY_KINDS; void h;\nexport type V = ViewMemory;\n"), []);
  });

  it('keeps the wire contracts free of platform code, and the editor API out of the server', async () => {
    assert.equal((await walls('contracts/protocol.ts', "import { openDatabase } from '../server/src/store/database';\nvoid openDatabase;\n")).length, 1);
    assert.equal((await walls('contracts/viewSchemas.ts', "import path from 'node:path';\nvoid path;\n")).length, 1);
    assert.equal((await walls('contracts/webviewMessages.ts', "import { x } from '../client/src/commands';\nvoid x;\n")).length, 1);
    assert.equal((await walls('server/src/memory/types.ts', "import { x } from '../store/database';\nvoid x;\n")).length, 1, 'the memory types travel with the contracts');
    assert.deepEqual(await walls('contracts/viewProtocol.ts', "import type { MemoryKind } from '../server/src/memory/types';\nimport type { MemorySummary } from './protocol';\nexport type K = MemoryKind | MemorySummary;\n"), []);
    assert.equal((await walls('server/src/lsp/planted.ts', "import * as vscode from 'vscode';\nvoid vscode;\n")).length, 1);
  });

  it('fails the lint (an error, not a warning) on a planted violation', async () => {
    const [result] = await eslint.lintText("import { answerHook } from '../hooks/runHook';\nvoid answerHook;\n", { filePath: 'server/src/recall/planted.ts' });
    assert.equal(result!.errorCount, 1);
  });
});
