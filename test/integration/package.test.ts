import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { REPO_ROOT } from '../support/engramProcess';
import { tempDir } from '../support/tempDirs';
import { zipEntries } from '../support/zipEntries';

const BINDINGS: Record<string, string> = {
  'win32-x64': 'win32-x64',
  'win32-arm64': 'win32-arm64',
  'darwin-x64': 'darwin-x64',
  'darwin-arm64': 'darwin-arm64',
  'linux-x64': 'linux-x64',
  'linux-arm64': 'linux-arm64',
  'alpine-x64': 'linuxmusl-x64',
  'alpine-arm64': 'linuxmusl-arm64',
};

describe('npm run package', () => {
  it('makes one VSIX per VS Code target, each with exactly the SQLite binding of its platform and its target in the manifest', () => {
    const out = tempDir('engram-vsix-');
    const printed = execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'package.mjs'), '--out-dir', out], { cwd: REPO_ROOT, encoding: 'utf8' });
    const { version } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.deepEqual(readdirSync(out).sort(), [...Object.keys(BINDINGS).map((target) => `engram-${target}-${version}.vsix`), 'dist-plugin'].sort());
    for (const [target, binding] of Object.entries(BINDINGS)) {
      const file = path.join(out, `engram-${target}-${version}.vsix`);
      const entries = zipEntries(file);
      const names = entries.map((e) => e.name);
      assert.deepEqual(names.filter((n) => n.endsWith('.node')), [`extension/dist/native/${binding}.node`], target);
      // Every script the build makes runs in the extension: the entry, each command's bundle and each worker.
      for (const script of readdirSync(path.join(REPO_ROOT, 'dist')).filter((f) => f.endsWith('.js'))) assert.ok(names.includes(`extension/dist/${script}`), `${target}: ${script}`);
      assert.equal(names.filter((n) => n.endsWith('.map') || n.includes('node_modules/')).length, 0, target);
      // ASCII only: one other character makes V8 keep a bundle's whole source as two bytes a character.
      for (const script of names.filter((n) => /^extension\/dist\/(engram|.*-worker).*\.js$/.test(n))) {
        const text = entries.find((e) => e.name === script)!.read().toString('latin1');
        assert.doesNotMatch(text, /[^\x00-\x7f]/, `${target}: ${script}`);
      }
      const manifest = entries.find((e) => e.name === 'extension.vsixmanifest')!.read().toString('utf8');
      assert.match(manifest, new RegExp(`TargetPlatform="${target}"`), target);
      assert.match(printed, new RegExp(`engram-${target}-${version}\\.vsix: ${target}, \\d+\\.\\d\\d MiB`));
    }
    // The Claude Code plugin beside them (docs/plugin.md): every platform's binding, no source maps.
    const plugin = path.join(out, 'dist-plugin', 'engram');
    assert.ok(readdirSync(path.join(out, 'dist-plugin', '.claude-plugin')).includes('marketplace.json'));
    assert.deepEqual(readdirSync(path.join(plugin, 'dist', 'native')).sort(), [...new Set(Object.values(BINDINGS))].map((b) => `${b}.node`).sort());
    assert.ok(readdirSync(path.join(plugin, 'dist')).includes('engram.js'));
    assert.equal(readdirSync(path.join(plugin, 'dist'), { recursive: true }).filter((f) => String(f).endsWith('.map') || String(f).includes('webview')).length, 0);
    assert.equal(JSON.parse(readFileSync(path.join(plugin, '.claude-plugin', 'plugin.json'), 'utf8')).version, version);
  });

  it('makes bundles ASCII only without changing a tagged template, whose tag reads the text as written', () => {
    // The build writes `\uXXXX` for every other character (scripts/build.mjs asciiOnly): the same
    // character in strings, regular expressions and identifiers, but not in a template's raw text.
    const escaped: string[] = [];
    for (const script of readdirSync(path.join(REPO_ROOT, 'dist')).filter((f) => /^(engram|.*-worker).*\.js$/.test(f))) {
      const source = ts.createSourceFile(script, readFileSync(path.join(REPO_ROOT, 'dist', script), 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
      const visit = (node: ts.Node): void => {
        if (ts.isTaggedTemplateExpression(node)) {
          const t = node.template;
          const raw = ts.isNoSubstitutionTemplateLiteral(t) ? [t.rawText] : [t.head.rawText, ...t.templateSpans.map((s) => s.literal.rawText)];
          if (raw.some((text) => /\\u(?!00[0-7])[0-9a-fA-F]{4}/.test(text ?? ''))) escaped.push(`${script}: ${node.getText(source).slice(0, 80)}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    assert.deepEqual(escaped, []);
  });
});
