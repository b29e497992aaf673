import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import ts from 'typescript';
import { REPO_ROOT } from '../support/engramProcess';

/**
 * Each side is typechecked against its own platform (scripts/typecheck.mjs): the server has Node
 * and no DOM, the webview the DOM and no Node, the extension Node and the editor API. Each case
 * plants a file in the side's folder, checks it with that side's tsconfig, and reads the errors.
 */
describe('the platform walls, as each side\'s tsconfig draws them', () => {
  const planted: string[] = [];
  after(() => planted.forEach((file) => rmSync(file, { force: true })));

  function errors(side: 'server' | 'client' | 'webview', code: string): string[] {
    const folder = path.join(REPO_ROOT, side, 'src', '__planted__');
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, `planted-${process.pid}.ts`);
    writeFileSync(file, code);
    planted.push(file);
    const config = ts.getParsedCommandLineOfConfigFile(path.join(REPO_ROOT, side, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(String(d.messageText)) })!;
    const program = ts.createProgram([file], config.options);
    const diagnostics = ts.getPreEmitDiagnostics(program, program.getSourceFile(file));
    rmSync(folder, { recursive: true, force: true });
    return diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  }

  it('the server has no DOM: `window` and `document` do not exist there', () => {
    assert.match(errors('server', 'export const width = window.innerWidth;\n').join('\n'), /Cannot find name 'window'/);
    assert.deepEqual(errors('server', "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n"), []);
  });

  it('the webview has no Node: `process` and node: modules do not exist there', () => {
    assert.match(errors('webview', 'export const home = process.env.HOME;\n').join('\n'), /Cannot find name 'process'/);
    assert.deepEqual(errors('webview', 'export const width = window.innerWidth;\n'), []);
  });

  it('the extension has the editor API and Node, and no DOM', () => {
    assert.deepEqual(errors('client', "import * as vscode from 'vscode';\nexport const version = vscode.version + process.version;\n"), []);
    assert.match(errors('client', 'export const title = document.title;\n').join('\n'), /Cannot find name 'document'/);
  });
});
