import { readFileSync } from 'node:fs';
import path from 'node:path';
import { anchorLines } from '../../server/src/anchors/anchorFromText';
import { diffTexts } from '../../server/src/capture/diffTexts';
import { diffTitle } from '../../server/src/capture/diffTitle';
import type { NewMemory } from '../../server/src/memory/types';

/**
 * The memories of the code-tied recall set (docs/code-recall.md): about half a year of work on the
 * demo shop (demo/: src/db.ts, src/pool.ts, api/orders.py, cmd/inventory/main.go), written by
 * hand to look like what Engram captures — diff memories of edits to named functions (patches made
 * by the real diff code from before/after texts of the real files), decisions, constraints (pinned
 * hard and soft, anchored to line ranges of the real file text, file-, project- and glob-scoped),
 * gotchas, facts, a compaction summary, notes and prompts (intents) — plus distractors: memories
 * about similarly named symbols in other files of the shop (which are not in demo/), superseded
 * old memories, and memories that share words with a query but are about something else.
 *
 * Every memory has a stable key (stored as sourceRef `code:<key>`) and an age in days; the
 * evaluation stores it at `now − age`, so recency is the same on every run.
 */

export type MemoryRole = 'demo' | 'old' | 'distractor';

export interface CodeMemory {
  readonly key: string;
  /** demo: about the demo code as it is; old: about code or choices since replaced; distractor: about something else. */
  readonly role: MemoryRole;
  readonly ageDays: number;
  readonly memory: NewMemory;
}

/** The demo files' text, by project path (for anchors and diffs). */
export type DemoTexts = Readonly<Record<string, string>>;

export const DEMO_FILES = ['src/db.ts', 'src/pool.ts', 'api/orders.py', 'cmd/inventory/main.go'] as const;

export function readDemoTexts(demoDir: string): DemoTexts {
  return Object.fromEntries(DEMO_FILES.map((f) => [f, readFileSync(path.join(demoDir, f), 'utf8')]));
}

/** `text` with `from` replaced by `to`; throws when `from` is missing, so a changed demo fails loudly. */
function replaced(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`code recall set: the demo no longer contains ${JSON.stringify(from)}`);
  return text.replace(from, to);
}

/**
 * A line range (0-based, inclusive): from the first line containing `first` to the next line that
 * is exactly `last` (a closing brace at the declaration's indentation) or, for Python, contains it.
 */
function linesOf(text: string, first: string, last: string): [number, number] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.includes(first));
  const end = lines.findIndex((l, i) => start >= 0 && i > start && (l === last || (last.trim() !== '}' && l.includes(last))));
  if (start < 0 || end < 0) throw new Error(`code recall set: lines ${JSON.stringify(first)}…${JSON.stringify(last)} not found`);
  return [start, end];
}

interface DiffOrigin {
  readonly source: 'editor' | 'claude';
  readonly why?: string;
  readonly sessionId?: string;
}

/** A diff memory as ChangeRecorder stores it: title from diffTitle, the unified patch as body. */
function diffMemory(file: string, before: string | null, after: string | null, symbols: readonly string[], origin: DiffOrigin): NewMemory {
  const diff = diffTexts(file, before, after);
  if (!diff) throw new Error(`code recall set: no change in ${file}`);
  const change = before === null ? 'created' : after === null ? 'deleted' : 'edited';
  return {
    kind: 'diff',
    title: diffTitle(change, file, symbols, diff.added, diff.removed),
    body: diff.patch,
    why: origin.why ?? null,
    source: origin.source,
    sessionId: origin.sessionId ?? null,
    importance: origin.source === 'claude' ? 0.5 : 0.4,
    files: [file],
    symbols,
    meta: { change, added: diff.added, removed: diff.removed, truncated: diff.truncated, lineEndingsOnly: diff.lineEndingsOnly, revisions: [] },
  };
}

/** A memory the user or an agent stated (CLI `remember`, MCP `remember`, the panel). */
function stated(kind: NewMemory['kind'], title: string, fields: Partial<NewMemory> = {}): NewMemory {
  return { kind, title, body: fields.body ?? title, source: 'user', importance: 0.5, ...fields };
}

/** A typed prompt, as transcript ingest stores it. */
function prompt(text: string, sessionId: string, files: readonly string[] = []): NewMemory {
  return { kind: 'intent', title: `Asked: ${text}`, body: text, source: 'claude', sessionId, importance: 0.15, files };
}

/** A decision or rule found in a session by the extractors: unpinned candidate, files of the turn. */
function extracted(kind: 'decision' | 'constraint', text: string, by: 'user' | 'assistant', sessionId: string, files: readonly string[]): NewMemory {
  return {
    kind,
    title: text,
    body: text,
    why: by === 'user' ? 'Stated by the user in a Claude Code prompt.' : 'Stated by Claude in a Claude Code session.',
    source: 'claude',
    sessionId,
    importance: 0.6,
    files,
    meta: { candidate: true, extractor: kind === 'decision' ? 'decision-statement' : 'rule-statement', by },
  };
}

/** Small files elsewhere in the shop (not in demo/), for distractor diffs. */
const OTHER = {
  search: {
    before: `import { db } from './db';\n\nexport function query(text: string) {\n  return db.search(\`"\${text}"\`);\n}\n`,
    after: `import { db } from './db';\n\nconst OPERATORS = /["*^():]/g;\n\nexport function query(text: string) {\n  const escaped = text.replace(OPERATORS, ' ').trim();\n  return db.search(\`"\${escaped}"\`);\n}\n`,
  },
  cache: {
    before: `export class Cache {\n  private readonly entries = new Map<string, unknown>();\n}\n\nexport function close(cache: Cache): void {\n  cache.clear();\n}\n`,
    after: `export class Cache {\n  private readonly entries = new Map<string, unknown>();\n}\n\nexport async function close(cache: Cache): Promise<void> {\n  await cache.flush();\n  cache.clear();\n}\n`,
  },
  refunds: {
    before: `class RefundService:\n    def total(self, order_id):\n        refunds = self.repository.for_order(order_id)\n        return sum(r.amount for r in refunds) + sum(r.amount for r in refunds if r.partial)\n`,
    after: `class RefundService:\n    def total(self, order_id):\n        refunds = self.repository.for_order(order_id)\n        return sum((r.amount for r in refunds), Decimal("0"))\n`,
  },
  reports: {
    before: `package main\n\nfunc main() {\n\trows := readCSV("warehouse.csv")\n\tprintReport(rows)\n}\n`,
    after: `package main\n\nimport "flag"\n\nfunc main() {\n\tcsvPath := flag.String("csv", "warehouse.csv", "warehouse export")\n\tflag.Parse()\n\trows := readCSV(*csvPath)\n\tprintReport(rows)\n}\n`,
  },
  format: {
    before: `export function formatPrice(cents: number): string {\n  return '$' + (cents / 100).toFixed(2);\n}\n`,
    after: `export function formatPrice(cents: number, currency = 'USD'): string {\n  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);\n}\n`,
  },
};

/** The whole set, built against the demo files' current text (anchors and diffs need it). */
export function codeRecallMemories(texts: DemoTexts): CodeMemory[] {
  const db = texts['src/db.ts']!;
  const pool = texts['src/pool.ts']!;
  const orders = texts['api/orders.py']!;
  const inventory = texts['cmd/inventory/main.go']!;

  const queryLines = linesOf(db, '/** Runs one SQL statement', '}');
  const releaseLines = linesOf(pool, 'release(connection: Connection)', '  }');
  const cancelLines = linesOf(orders, 'def cancel(', 'self.repository.save(order)');

  const queryWithoutFinally = replaced(
    db,
    `  const connection = await pool.acquire();
  try {
    return (await connection.execute(sql, params)) as T[];
  } finally {
    pool.release(connection);
  }`,
    `  const connection = await pool.acquire();
  const rows = (await connection.execute(sql, params)) as T[];
  pool.release(connection);
  return rows;`,
  );
  const queryUntyped = replaced(
    replaced(db, 'export async function query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {', 'export async function query(sql: string, params: readonly unknown[] = []): Promise<unknown[]> {'),
    'return (await connection.execute(sql, params)) as T[];',
    'return await connection.execute(sql, params);',
  );
  const withFindByEmail = replaced(
    db,
    '  return rows[0] ?? null;\n}\n',
    `  return rows[0] ?? null;
}

export async function findCustomerByEmail(email: string) {
  const rows = await query<{ id: number; name: string }>('SELECT id, name FROM customers WHERE email = ?', [email.toLowerCase()]);
  return rows[0] ?? null;
}
`,
  );
  const poolFromEnv = replaced(db, 'new Pool({ max: 10 })', 'new Pool({ max: Number(process.env.POOL_SIZE ?? 10) })');

  const m = (key: string, role: MemoryRole, ageDays: number, memory: NewMemory): CodeMemory => ({ key, role, ageDays, memory });

  return [
    // ── src/db.ts › query ────────────────────────────────────────────────────────────────────
    m('db-query-constraint', 'demo', 150.2, {
      kind: 'constraint',
      title: 'All SQL goes through query() with bound parameters; never concatenate user input into SQL.',
      body: 'All SQL goes through query() with bound parameters; never concatenate user input into SQL.',
      why: 'A 2025 pentest found SQL injection in a string-built report query.',
      source: 'user',
      pin: 'hard',
      importance: 1,
      files: ['src/db.ts'],
      symbols: ['query'],
      anchor: anchorLines('src/db.ts', db, queryLines[0], queryLines[1]),
    }),
    m('db-query-diff-finally', 'demo', 120.4, diffMemory('src/db.ts', queryWithoutFinally, db, ['query'], {
      source: 'claude',
      sessionId: 'session-leak',
      why: 'Connections leaked whenever execute() threw: after about 200 failed queries the pool was empty and every request hung.',
    })),
    m('db-leak-test-gotcha', 'demo', 120.3, {
      kind: 'gotcha',
      title: 'npm test -- test/db.test.ts failed with "Error: Timeout of 5000ms exceeded"; fixed by editing src/db.ts',
      body: 'Failed: npm test -- test/db.test.ts (exit code 1)\nError: Timeout of 5000ms exceeded. For async tests and hooks, ensure "done()" is called\nThen: Edit src/db.ts\nSucceeded: npm test -- test/db.test.ts',
      source: 'claude',
      sessionId: 'session-leak',
      importance: 0.55,
      files: ['src/db.ts', 'test/db.test.ts'],
      meta: { extractor: 'failure-then-success', exitCode: 1 },
    }),
    m('db-query-gotcha-release', 'demo', 119.8, stated('gotcha', 'query() must release its connection in a finally block: a throw from execute() used to leak it and drain the pool.', {
      source: 'mcp',
      sessionId: 'session-leak',
      files: ['src/db.ts'],
      symbols: ['query'],
    })),
    m('db-query-diff-generic', 'demo', 60.1, diffMemory('src/db.ts', queryUntyped, db, ['query'], {
      source: 'claude',
      sessionId: 'session-types',
      why: 'Callers cast the rows everywhere; query<T>() types them once.',
    })),
    m('db-query-decision-no-orm', 'demo', 200.5, stated('decision', 'No ORM: keep hand-written SQL through query().', {
      why: "Prisma's generated client doubled cold start in the Lambda build and hid an N+1 in the orders report.",
      files: ['src/db.ts'],
    })),
    m('db-params-fact', 'demo', 140.7, stated('fact', 'SQL in src/db.ts uses ? placeholders; the Postgres adapter behind Connection.execute rewrites them to $1…$n.', {
      files: ['src/db.ts', 'src/pool.ts'],
      symbols: ['Connection'],
    })),
    m('db-query-transactions-gotcha', 'demo', 57.3, stated('gotcha', 'Two query() calls are not one transaction: each call acquires its own connection, so BEGIN and COMMIT sent through separate calls run on different connections.', {
      files: ['src/db.ts'],
      symbols: ['query'],
    })),
    m('db-query-intent-slowlog', 'demo', 5.2, prompt('log every query slower than 200 ms from query() in src/db.ts, with its SQL', 'session-slowlog', ['src/db.ts'])),
    m('db-query-slowlog-decision', 'demo', 5.1, extracted(
      'decision',
      'Slow queries are logged by Postgres itself (log_min_duration_statement = 200ms) rather than in query(), because logging the params from query() would write customer emails to our logs.',
      'assistant',
      'session-slowlog',
      ['src/db.ts'],
    )),

    // ── src/db.ts › findCustomer, findCustomerByEmail ────────────────────────────────────────
    m('db-findcustomer-intent', 'demo', 45.3, prompt('findCustomer in src/db.ts returns undefined for a missing id and the order handlers crash on it; make it return null', 'session-null', ['src/db.ts'])),
    m('db-findcustomer-diff-null', 'demo', 45.2, diffMemory('src/db.ts', replaced(db, 'return rows[0] ?? null;', 'return rows[0];'), db, ['findCustomer'], {
      source: 'claude',
      sessionId: 'session-null',
      why: 'Callers crashed on undefined rows.',
    })),
    m('db-findcustomer-constraint-null', 'demo', 44.9, stated('constraint', 'findCustomer returns null, not undefined, when no customer has the id: callers compare with === null.', {
      source: 'mcp',
      sessionId: 'session-null',
      why: 'callers compare with === null',
      pin: 'soft',
      importance: 0.8,
      files: ['src/db.ts'],
      symbols: ['findCustomer'],
    })),
    m('db-findcustomer-gotcha-id-type', 'demo', 30.6, stated('gotcha', 'findCustomer needs a number: the HTTP layer passes the :id path parameter as a string, and Postgres rejects comparing integer = text.', {
      files: ['src/db.ts'],
      symbols: ['findCustomer'],
    })),
    m('db-findcustomer-decision-columns', 'demo', 90.4, stated('decision', 'findCustomer selects only id and name; emails and addresses live in the customer profile service since the GDPR cleanup.', {
      files: ['src/db.ts'],
      symbols: ['findCustomer'],
    })),
    m('db-findbyemail-deleted', 'demo', 90.5, diffMemory('src/db.ts', withFindByEmail, db, ['findCustomerByEmail'], {
      source: 'claude',
      sessionId: 'session-gdpr',
      why: 'Email lookups moved to the customer profile service (GDPR cleanup).',
    })),
    m('db-findbyemail-old-gotcha', 'old', 230.2, stated('gotcha', 'findCustomerByEmail must lowercase the email: addresses are stored lowercased.', {
      files: ['src/db.ts'],
      symbols: ['findCustomerByEmail'],
    })),

    // ── src/db.ts › close ────────────────────────────────────────────────────────────────────
    m('db-close-diff', 'demo', 100.3, diffMemory('src/db.ts', replaced(db, 'export async function close(): Promise<void> {\n  await pool.drain();', 'export function close(): void {\n  void pool.drain();'), db, ['close'], {
      source: 'claude',
      sessionId: 'session-jest',
      why: 'Tests left the pool open and Jest never exited.',
    })),
    m('db-close-gotcha-jest', 'demo', 99.6, stated('gotcha', 'Jest does not exit after the database tests unless afterAll() awaits close() from src/db.ts.', {
      files: ['src/db.ts', 'test/db.test.ts'],
      symbols: ['close'],
    })),

    // ── src/db.ts › pool (the pool size) ─────────────────────────────────────────────────────
    m('db-pool-size-diff', 'demo', 71.2, diffMemory('src/db.ts', replaced(db, 'new Pool({ max: 10 })', 'new Pool({ max: 5 })'), db, ['pool'], { source: 'editor' })),
    m('db-pool-size-decision', 'demo', 70.8, stated('decision', 'Pool size is 10 connections per process.', {
      why: 'Bursty traffic exhausted 5 connections during the spring sale.',
      files: ['src/db.ts'],
      symbols: ['pool'],
    })),
    m('db-pool-env-intent', 'demo', 12.4, prompt('make the pool size in src/db.ts configurable with a POOL_SIZE environment variable', 'session-poolsize', ['src/db.ts'])),
    m('db-pool-env-diff', 'demo', 12.3, diffMemory('src/db.ts', db, poolFromEnv, ['pool'], {
      source: 'claude',
      sessionId: 'session-poolsize',
      why: 'POOL_SIZE lets ops tune the pool per deployment.',
    })),
    m('db-pool-env-revert-diff', 'demo', 11.2, diffMemory('src/db.ts', poolFromEnv, db, ['pool'], { source: 'editor' })),
    m('db-pool-env-revert-decision', 'demo', 11.1, stated('decision', 'Keep the pool size a constant 10, not an env var: 8 processes share Postgres max_connections = 100, and one POOL_SIZE=40 deploy starved the others.', {
      files: ['src/db.ts'],
      symbols: ['pool'],
    })),
    m('old-pool-size-5', 'old', 240.3, stated('decision', 'Pool size is 5 connections per process.', {
      why: 'Postgres on the small instance allows 50 connections.',
      files: ['src/db.ts'],
      symbols: ['pool'],
    })),
    m('old-orm-trial', 'old', 235.6, stated('decision', 'Try Prisma for the queries in src/db.ts.', {
      files: ['src/db.ts'],
    })),

    // ── src/pool.ts ──────────────────────────────────────────────────────────────────────────
    m('pool-created-diff', 'demo', 180.1, diffMemory('src/pool.ts', null, pool, ['Connection', 'Pool'], { source: 'editor' })),
    m('pool-constructor-diff', 'demo', 175.4, diffMemory('src/pool.ts', replaced(pool, 'constructor(private readonly options', 'constructor(private options'), pool, ['Pool.constructor'], { source: 'editor' })),
    m('pool-connection-decision', 'demo', 170.2, stated('decision', 'Connection is an interface with only execute(sql, params), so tests can pass a fake and no driver types leak out of src/pool.ts.', {
      files: ['src/pool.ts'],
      symbols: ['Connection'],
    })),
    m('pool-acquire-diff-stub', 'demo', 160.3, diffMemory(
      'src/pool.ts',
      replaced(pool, '    return this.idle.pop() ?? { execute: async () => [] };', "    const connection = this.idle.pop();\n    if (!connection) throw new Error('pool exhausted');\n    return connection;"),
      pool,
      ['Pool.acquire'],
      { source: 'claude', sessionId: 'session-stub', why: 'Unit tests run without a database: an empty pool hands out a no-op connection instead of throwing.' },
    )),
    m('pool-acquire-fact-stub', 'demo', 150.6, stated('fact', 'Pool.acquire never blocks or throws: with no idle connection it returns a stub whose execute() resolves to [] — an empty result in development can mean no real connection was ever released into the pool.', {
      files: ['src/pool.ts'],
      symbols: ['Pool.acquire'],
    })),
    m('pool-acquire-gotcha-lifo', 'demo', 40.2, stated('gotcha', "Pool.acquire pops the most recently released connection (LIFO), so connections at the bottom of idle sit unused until Postgres' idle timeout closes them; the first acquire after a quiet hour can get a dead one.", {
      files: ['src/pool.ts'],
      symbols: ['Pool.acquire'],
    })),
    m('pool-intent-health', 'demo', 39.4, prompt("add a health check to Pool.acquire in src/pool.ts so it doesn't hand out dead connections", 'session-health', ['src/pool.ts'])),
    m('pool-note-no-wait', 'demo', 38.9, stated('note', 'Pool has no max wait and no queue: acquire() never waits for a released connection, it falls back to a stub. Needs a bounded wait before production.', {
      files: ['src/pool.ts'],
      symbols: ['Pool'],
    })),
    m('pool-release-constraint', 'demo', 80.1, {
      kind: 'constraint',
      title: 'release() drops connections beyond options.max instead of queueing them; idle must never grow past max.',
      body: 'release() drops connections beyond options.max instead of queueing them; idle must never grow past max.',
      why: 'An unbounded idle list held 60 Postgres connections after a burst.',
      source: 'user',
      pin: 'soft',
      importance: 0.8,
      files: ['src/pool.ts'],
      symbols: ['Pool.release'],
      anchor: anchorLines('src/pool.ts', pool, releaseLines[0], releaseLines[1]),
    }),
    m('pool-release-diff', 'demo', 79.3, diffMemory('src/pool.ts', replaced(pool, 'this.idle.length < this.options.max', 'this.idle.length <= this.options.max'), pool, ['Pool.release'], {
      source: 'claude',
      sessionId: 'session-release',
      why: 'Off by one: idle held max + 1 connections.',
    })),
    m('pool-drain-gotcha', 'demo', 98.2, stated('gotcha', 'Pool.drain only forgets idle connections; checked-out connections are not closed, so call it only after in-flight queries finish.', {
      files: ['src/pool.ts'],
      symbols: ['Pool.drain'],
    })),

    // ── api/orders.py ────────────────────────────────────────────────────────────────────────
    m('orders-init-decision-repo', 'demo', 190.3, stated('decision', 'OrderService gets its repository through __init__ so tests pass an in-memory repository instead of the database.', {
      files: ['api/orders.py'],
      symbols: ['OrderService.__init__'],
    })),
    m('orders-cancel-diff', 'demo', 141.2, diffMemory('api/orders.py', replaced(orders, '        order.status = "cancelled"\n        self.repository.save(order)', '        self.repository.delete(order)'), orders, ['OrderService.cancel'], {
      source: 'claude',
      sessionId: 'session-cancel',
      why: 'Finance could not audit refunds of deleted orders.',
    })),
    m('orders-cancel-constraint', 'demo', 140.8, {
      kind: 'constraint',
      title: 'Cancelling an order must never delete it: set status and save, so refunds can be audited.',
      body: 'Cancelling an order must never delete it: set status and save, so refunds can be audited.',
      why: null,
      source: 'user',
      pin: 'soft',
      importance: 0.8,
      files: ['api/orders.py'],
      symbols: ['OrderService.cancel'],
      anchor: anchorLines('api/orders.py', orders, cancelLines[0], cancelLines[1]),
    }),
    m('orders-cancel-gotcha-shipped', 'demo', 35.4, stated('gotcha', 'OrderService.cancel does not check whether the order has shipped: cancelling a shipped order marks it cancelled while the parcel is on its way. Check order.status first.', {
      files: ['api/orders.py'],
      symbols: ['OrderService.cancel'],
    })),
    m('orders-money-glob', 'demo', 130.6, {
      kind: 'constraint',
      title: 'Money in the Python API is Decimal, never float; sums start from Decimal("0").',
      body: 'Money in the Python API is Decimal, never float; sums start from Decimal("0").',
      why: 'Float rounding put one-cent mismatches into invoices.',
      source: 'user',
      pin: 'hard',
      importance: 1,
      meta: { glob: 'api/**/*.py' },
    }),
    m('orders-total-diff-decimal', 'demo', 129.4, diffMemory('api/orders.py', replaced(orders, 'return sum((line.price * line.quantity for line in order.lines), Decimal("0"))', 'return sum(line.price * line.quantity for line in order.lines)'), orders, ['OrderService.total'], {
      source: 'claude',
      sessionId: 'session-decimal',
      why: 'sum() of an order with no lines returned int 0, which the invoice template printed as 0 instead of 0.00.',
    })),
    m('orders-total-gotcha-empty', 'demo', 128.9, stated('gotcha', 'sum() over an empty generator returns int 0, not Decimal: OrderService.total passes Decimal("0") as the start value.', {
      files: ['api/orders.py'],
      symbols: ['OrderService.total'],
    })),
    m('orders-summary', 'demo', 128.7, {
      kind: 'summary',
      title: 'Context compacted (auto, 142k → 18k tokens): OrderService.cancel now sets the status instead of deleting; totals are Decimal',
      body: 'The user asked to stop deleting cancelled orders and to fix the 0 vs 0.00 totals. OrderService.cancel in api/orders.py now sets order.status = "cancelled" and saves. OrderService.total sums Decimal values starting from Decimal("0"). Tests in api/test_orders.py cover both. Pending: nothing.',
      source: 'claude',
      sessionId: 'session-decimal',
      importance: 0.5,
      files: ['api/orders.py'],
      meta: { compaction: { trigger: 'auto', preTokens: 142_000, postTokens: 18_000 } },
    }),
    m('orders-total-fact-tax', 'demo', 85.2, stated('fact', 'OrderService.total is the pre-tax sum of the lines; tax is added by the invoicing service.', {
      files: ['api/orders.py'],
      symbols: ['OrderService.total'],
    })),
    m('orders-repo-get-gotcha', 'demo', 60.4, stated('gotcha', 'repository.get raises KeyError for an unknown order id (it never returns None); the handlers must turn it into a 404.', {
      files: ['api/orders.py'],
      symbols: ['OrderService.total', 'OrderService.cancel'],
    })),
    m('orders-intent-discount', 'demo', 8.3, prompt('add discount codes to the order total in api/orders.py', 'session-discount', ['api/orders.py'])),
    m('orders-discount-decision', 'demo', 7.9, extracted(
      'decision',
      'Discounts will be applied per line before summing, rounded half-even to the cent, so OrderService.total stays a Decimal sum of lines.',
      'assistant',
      'session-discount',
      ['api/orders.py'],
    )),

    // ── cmd/inventory/main.go ────────────────────────────────────────────────────────────────
    m('inv-restock-diff', 'demo', 111.3, diffMemory(
      'cmd/inventory/main.go',
      replaced(inventory, '\tout := make([]Item, len(items))\n\tfor i, item := range items {\n\t\titem.Quantity += amount\n\t\tout[i] = item\n\t}\n\treturn out', '\tfor _, item := range items {\n\t\titem.Quantity += amount\n\t}\n\treturn items'),
      inventory,
      ['restock'],
      { source: 'claude', sessionId: 'session-restock', why: 'restock returned its input unchanged: the loop wrote to a copy.' },
    )),
    m('inv-restock-gotcha-copy', 'demo', 110.6, stated('gotcha', 'restock() ranges over a copy of each Item: writing item.Quantity alone changes nothing; assign out[i].', {
      files: ['cmd/inventory/main.go'],
      symbols: ['restock'],
    })),
    m('inv-restock-decision-immutable', 'demo', 109.5, stated('decision', 'restock returns a new slice instead of mutating items, so callers holding the old slice keep consistent stock.', {
      files: ['cmd/inventory/main.go'],
      symbols: ['restock'],
    })),
    m('inv-item-fact-sku', 'demo', 100.2, stated('fact', 'Item.SKU is the warehouse SKU (like A-1), not the catalog product id.', {
      files: ['cmd/inventory/main.go'],
      symbols: ['Item'],
    })),
    m('inv-restock-constraint-negative', 'demo', 50.3, {
      ...extracted('constraint', 'restock amounts must be positive; stock write-offs go through a separate, audited path.', 'user', 'session-restock-test', ['cmd/inventory/main.go']),
      symbols: ['restock'],
    }),
    m('inv-restock-test-intent', 'demo', 50.4, prompt('write a table test for restock in cmd/inventory/main.go with zero and negative amounts. restock amounts must be positive; stock write-offs go through a separate, audited path.', 'session-restock-test', ['cmd/inventory/main.go'])),
    m('inv-main-intent', 'demo', 21.2, prompt('in cmd/inventory/main.go print the restocked items so I can check restock by hand', 'session-main', ['cmd/inventory/main.go'])),
    m('inv-main-diff', 'demo', 21.1, diffMemory(
      'cmd/inventory/main.go',
      replaced(inventory, '\tfmt.Println(restock([]Item{{SKU: "A-1", Quantity: 2}}, 3))', '\titems := []Item{{SKU: "A-1", Quantity: 2}}\n\trestock(items, 3)\n\tfmt.Println(items)'),
      inventory,
      ['main'],
      { source: 'claude', sessionId: 'session-main', why: 'Print what restock returns: the input slice is never changed.' },
    )),

    // ── project-wide ─────────────────────────────────────────────────────────────────────────
    m('proj-fact-postgres', 'demo', 200.1, stated('fact', 'The demo shop uses PostgreSQL 16 in production and SQLite in tests.')),
    m('proj-constraint-no-secrets', 'demo', 160.4, stated('constraint', 'Never log connection strings, passwords or customer emails.', {
      why: 'A log export leaked a database URL in March.',
      pin: 'hard',
      importance: 1,
    })),
    m('proj-constraint-tests', 'demo', 120.9, stated('constraint', 'Every bug fix comes with a regression test that fails without it.', { pin: 'soft', importance: 0.8 })),
    m('proj-decision-monorepo', 'demo', 210.2, stated('decision', 'The TypeScript service, the Python API and the Go inventory tool stay in one repository with one CI pipeline.')),
    m('proj-fact-ci', 'demo', 180.5, stated('fact', 'CI runs npm test, pytest and go test ./... on every push; a red pipeline blocks the merge.')),

    // ── distractors: the same symbol names in other files ────────────────────────────────────
    m('dist-search-query', 'distractor', 25.2, diffMemory('src/search.ts', OTHER.search.before, OTHER.search.after, ['query'], {
      source: 'claude',
      sessionId: 'session-search',
      why: "Searching for O'Reilly broke the full-text query on the quote.",
    })),
    m('dist-search-query-gotcha', 'distractor', 24.8, stated('gotcha', 'search.ts query() escapes full-text operators itself: pass the raw user text, never pre-quoted.', {
      files: ['src/search.ts'],
      symbols: ['query'],
    })),
    m('dist-cache-close', 'distractor', 15.3, diffMemory('src/cache.ts', OTHER.cache.before, OTHER.cache.after, ['close'], { source: 'editor' })),
    m('dist-worker-pool', 'distractor', 65.1, stated('decision', 'WorkerPool runs 4 processes for CPU-bound image resizing.', {
      files: ['workers/pool.py'],
      symbols: ['WorkerPool'],
    })),
    m('dist-worker-pool-acquire', 'distractor', 55.7, stated('gotcha', 'WorkerPool.acquire blocks forever when a worker has crashed; always pass acquire(timeout=...).', {
      files: ['workers/pool.py'],
      symbols: ['WorkerPool.acquire'],
    })),
    m('dist-refunds-total', 'distractor', 18.4, diffMemory('api/refunds.py', OTHER.refunds.before, OTHER.refunds.after, ['RefundService.total'], {
      source: 'claude',
      sessionId: 'session-refunds',
      why: 'Partial refunds were counted twice.',
    })),
    m('dist-refunds-cancel-constraint', 'distractor', 75.2, stated('constraint', 'A refund can be cancelled only before it is sent to the payment provider.', {
      pin: 'soft',
      importance: 0.8,
      files: ['api/refunds.py'],
      symbols: ['RefundService.cancel'],
    })),
    m('dist-subscriptions-cancel', 'distractor', 33.3, stated('gotcha', 'SubscriptionService.cancel takes effect at the end of the billing period, not immediately.', {
      files: ['api/subscriptions.py'],
      symbols: ['SubscriptionService.cancel'],
    })),
    m('dist-reports-main', 'distractor', 10.2, diffMemory('cmd/reports/main.go', OTHER.reports.before, OTHER.reports.after, ['main'], {
      source: 'claude',
      sessionId: 'session-reports',
      why: 'The report reads the warehouse CSV path from a flag.',
    })),
    m('dist-reports-restock-fact', 'distractor', 95.4, stated('fact', 'cmd/reports prints a weekly restock report from the warehouse CSV; it does not call restock().', {
      files: ['cmd/reports/main.go'],
    })),
    m('dist-cart-item', 'distractor', 58.1, stated('fact', 'Item in web/cart.ts holds prices in integer cents.', {
      files: ['web/cart.ts'],
      symbols: ['Item'],
    })),
    m('dist-customers-find', 'distractor', 42.6, stated('gotcha', 'CustomerService.find in api/customers.py returns None for an unknown id and caches the miss for 60 s.', {
      files: ['api/customers.py'],
      symbols: ['CustomerService.find'],
    })),

    // ── distractors: shared words, other subjects ────────────────────────────────────────────
    m('dist-release-notes', 'distractor', 22.3, stated('decision', 'Release notes go in CHANGELOG.md and we release on Tuesdays.', { files: ['CHANGELOG.md'] })),
    m('dist-gateway-timeout', 'distractor', 28.5, stated('fact', 'The payment gateway connection timeout is 10 s; retries use exponential backoff.', { files: ['src/payments/gateway.ts'] })),
    m('dist-middleware-order', 'distractor', 48.2, stated('gotcha', 'Middleware order matters: auth must run before the rate limiter.', { files: ['src/server.ts'] })),
    m('dist-checkout-cancel', 'distractor', 36.1, stated('constraint', 'The Cancel button in checkout stays disabled while a payment is pending.', { files: ['web/checkout.tsx'] })),
    m('dist-total-count', 'distractor', 52.4, stated('fact', 'X-Total-Count is computed with a separate COUNT(*) query per list request.', { files: ['src/api/pagination.ts'] })),
    m('dist-e2e-intent', 'distractor', 2.1, prompt('fix the flaky e2e test in web/checkout.spec.ts', 'session-e2e', ['web/checkout.spec.ts'])),
    m('dist-ts-intent', 'distractor', 1.2, prompt('bump TypeScript to 5.6 and fix the new errors', 'session-ts')),
    m('dist-format-price', 'distractor', 3.4, diffMemory('web/format.ts', OTHER.format.before, OTHER.format.after, ['formatPrice'], { source: 'editor' })),
    m('dist-stock-cache', 'distractor', 66.2, stated('fact', 'Stock levels shown in the storefront are cached for 30 s.', { files: ['web/stock.ts'] })),
    m('dist-migrations', 'distractor', 88.1, stated('fact', 'SQL migrations live in schema/migrations and run with npm run migrate.', { files: ['schema/migrations/README.md'] })),
    m('dist-drain-queue', 'distractor', 77.7, stated('gotcha', 'Drain the order events queue before a deploy, or in-flight events are lost.', { files: ['ops/deploy.md'] })),
  ];
}
