// Prepares the demo workspace: a copy of demo/ outside the repository (so the repository never
// changes, and the copy is its own project rather than part of this git checkout) and memories
// seeded through the real CLI into a throwaway ENGRAM_HOME.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const engram = path.join(root, 'dist', 'engram.js');

/** The seeded hard constraint: pinned to `query()` in src/db.ts (lines 5–13). */
export const DEMO_CONSTRAINT = 'All SQL goes through query() with bound parameters; never concatenate user input into SQL.';

const SEEDS = [
  ['--kind', 'constraint', '--file', 'src/db.ts', '--lines', '5-13', '--pin', 'hard', '--symbol', 'query', '--why', 'A 2025 pentest found SQL injection in a string-built report query.', DEMO_CONSTRAINT],
  ['--kind', 'constraint', '--file', 'api/orders.py', '--lines', '14-17', '--pin', 'soft', '--symbol', 'OrderService.cancel', 'Cancelling an order must never delete it: set status and save, so refunds can be audited.'],
  ['--kind', 'decision', '--file', 'src/pool.ts', '--why', 'Bursty traffic exhausted 5 connections during the sale.', 'Pool size is 10 connections per process.'],
  ['--kind', 'gotcha', '--file', 'cmd/inventory/main.go', 'restock() ranges over a copy of each Item: writing item.Quantity alone changes nothing; assign out[i].'],
  ['--kind', 'fact', 'The demo shop uses PostgreSQL 16 in production and SQLite in tests.'],
];

/** `node`: a Node.js Engram runs on (22 or newer; toolchain.mjs's modernNode()). */
export function prepareDemo({ workspaceDir, engramHome, node = process.execPath }) {
  rmSync(workspaceDir, { recursive: true, force: true });
  rmSync(engramHome, { recursive: true, force: true });
  mkdirSync(path.dirname(workspaceDir), { recursive: true });
  cpSync(path.join(root, 'demo'), workspaceDir, { recursive: true });
  const env = { ...process.env, ENGRAM_HOME: engramHome };
  const ids = SEEDS.map((args) => execFileSync(node, [engram, 'remember', ...args, '--project', workspaceDir], { env, encoding: 'utf8' }).trim());
  return { workspaceDir, engramHome, ids };
}
