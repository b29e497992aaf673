import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { assertBuilt, REPO_ROOT, runEngram } from '../support/engramProcess';
import { isolatedEnv, tempDir } from '../support/tempDirs';
import path from 'node:path';

// One Node-API binding serves every supported Node (Node 20 is refused: see shim.test.ts).
describe('engram on every supported Node.js', () => {
  before(assertBuilt);

  for (const major of [22, 24]) {
    it(`doctor passes and a memory round-trips on Node ${major}`, async () => {
      const toolchain = await import(path.join(REPO_ROOT, 'scripts', 'lib', 'toolchain.mjs'));
      const node: string = await toolchain.ensureNode(major);
      const env = isolatedEnv();
      const project = tempDir();
      const doctor = await runEngram(['doctor', '--json', '--project', project], { env, node });
      assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
      const report = JSON.parse(doctor.stdout);
      assert.equal(report.ok, true);
      const runtime = report.checks.find((c: { name: string }) => c.name === 'runtime');
      assert.match(runtime.detail, new RegExp(`^Node v${major}\\.`));
      const binding = report.checks.find((c: { name: string }) => c.name === 'binding');
      assert.match(binding.detail, /native[\\/][a-z0-9-]+\.node \(SQLite 3\.\d+\.\d+, FTS5\)$/);

      const id = (await runEngram(['remember', '--kind', 'note', '--project', project, `written on Node ${major}`], { env, node })).stdout.trim();
      const recalled = JSON.parse((await runEngram(['recall', '--query', 'written', '--json', '--project', project], { env })).stdout);
      assert.equal(recalled.results[0].id, id);
    });
  }
});
