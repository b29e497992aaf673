/**
 * The queries of the code-tied recall set (docs/code-recall.md), with the memories that should be
 * in the top 5: `must` (an agent or a developer at that place would be worse off without it) and
 * `nice` (useful, not essential). Judged from the demo code and the memories in memories.ts, and
 * written down before Engram's answers to them were looked at; not changed after.
 *
 * Memories judged neither must nor nice are neutral, not wrong: notably the two project-wide
 * constraints ("never log connection strings…", "every bug fix comes with a regression test"),
 * which govern every file — context assembly gives the hard-pinned one anyway — but are not about
 * the code in focus.
 *
 * Lines are 0-based, as in RecallQuery; the comment shows the code on that line.
 */

export type QueryType = 'cursor' | 'file+text' | 'text' | 'open-files';

export interface CodeQuery {
  readonly id: string;
  readonly type: QueryType;
  readonly query?: string;
  readonly file?: string;
  readonly line?: number;
  readonly openFiles?: readonly string[];
  readonly must: readonly string[];
  readonly nice?: readonly string[];
}

export const CODE_QUERIES: readonly CodeQuery[] = [
  // ── (a) cursor only: file + line, no text; the symbol comes from tree-sitter ────────────────
  {
    id: 'cur-db-query',
    type: 'cursor',
    file: 'src/db.ts',
    line: 8, // return (await connection.execute(sql, params)) as T[];
    must: ['db-query-constraint', 'db-query-gotcha-release', 'db-query-transactions-gotcha'],
    nice: ['db-query-diff-finally', 'db-query-diff-generic', 'db-params-fact', 'db-query-slowlog-decision', 'db-query-decision-no-orm', 'db-leak-test-gotcha'],
  },
  {
    id: 'cur-db-findcustomer',
    type: 'cursor',
    file: 'src/db.ts',
    line: 16, // return rows[0] ?? null;
    must: ['db-findcustomer-constraint-null', 'db-findcustomer-gotcha-id-type'],
    nice: ['db-findcustomer-diff-null', 'db-findcustomer-decision-columns', 'db-findcustomer-intent'],
  },
  {
    id: 'cur-db-close',
    type: 'cursor',
    file: 'src/db.ts',
    line: 20, // await pool.drain();
    must: ['db-close-gotcha-jest'],
    nice: ['db-close-diff', 'pool-drain-gotcha'],
  },
  {
    id: 'cur-db-pool',
    type: 'cursor',
    file: 'src/db.ts',
    line: 2, // const pool = new Pool({ max: 10 });
    must: ['db-pool-size-decision', 'db-pool-env-revert-decision'],
    nice: ['db-pool-size-diff', 'db-pool-env-diff', 'db-pool-env-revert-diff', 'db-pool-env-intent'],
  },
  {
    id: 'cur-pool-acquire',
    type: 'cursor',
    file: 'src/pool.ts',
    line: 10, // return this.idle.pop() ?? { execute: async () => [] };
    must: ['pool-acquire-gotcha-lifo', 'pool-acquire-fact-stub'],
    nice: ['pool-acquire-diff-stub', 'pool-intent-health', 'pool-note-no-wait'],
  },
  {
    id: 'cur-pool-release',
    type: 'cursor',
    file: 'src/pool.ts',
    line: 14, // if (this.idle.length < this.options.max) this.idle.push(connection);
    must: ['pool-release-constraint', 'pool-release-diff'],
  },
  {
    id: 'cur-pool-drain',
    type: 'cursor',
    file: 'src/pool.ts',
    line: 18, // this.idle.length = 0;
    must: ['pool-drain-gotcha'],
    nice: ['db-close-diff', 'db-close-gotcha-jest'],
  },
  {
    id: 'cur-pool-connection',
    type: 'cursor',
    file: 'src/pool.ts',
    line: 1, // execute(sql: string, params: readonly unknown[]): Promise<unknown[]>;
    must: ['pool-connection-decision'],
    nice: ['db-params-fact', 'pool-created-diff'],
  },
  {
    id: 'cur-pool-class',
    type: 'cursor',
    file: 'src/pool.ts',
    line: 5, // private readonly idle: Connection[] = [];
    must: ['pool-note-no-wait'],
    nice: ['pool-release-constraint', 'pool-acquire-gotcha-lifo', 'pool-drain-gotcha', 'pool-acquire-fact-stub'],
  },
  {
    id: 'cur-orders-cancel',
    type: 'cursor',
    file: 'api/orders.py',
    line: 15, // order.status = "cancelled"
    must: ['orders-cancel-constraint', 'orders-cancel-gotcha-shipped'],
    nice: ['orders-cancel-diff', 'orders-repo-get-gotcha'],
  },
  {
    id: 'cur-orders-total',
    type: 'cursor',
    file: 'api/orders.py',
    line: 11, // return sum((line.price * line.quantity for line in order.lines), Decimal("0"))
    must: ['orders-money-glob', 'orders-total-gotcha-empty', 'orders-total-fact-tax'],
    nice: ['orders-total-diff-decimal', 'orders-discount-decision', 'orders-intent-discount', 'orders-repo-get-gotcha'],
  },
  {
    id: 'cur-orders-init',
    type: 'cursor',
    file: 'api/orders.py',
    line: 7, // self.repository = repository
    must: ['orders-init-decision-repo'],
    nice: ['orders-repo-get-gotcha'],
  },
  {
    id: 'cur-orders-import',
    type: 'cursor',
    file: 'api/orders.py',
    line: 2, // from decimal import Decimal   (outside any declaration)
    must: ['orders-money-glob'],
    nice: ['orders-summary', 'orders-discount-decision'],
  },
  {
    id: 'cur-inv-restock',
    type: 'cursor',
    file: 'cmd/inventory/main.go',
    line: 12, // item.Quantity += amount
    must: ['inv-restock-gotcha-copy', 'inv-restock-constraint-negative'],
    nice: ['inv-restock-diff', 'inv-restock-decision-immutable', 'inv-restock-test-intent'],
  },
  {
    id: 'cur-inv-item',
    type: 'cursor',
    file: 'cmd/inventory/main.go',
    line: 6, // Quantity int
    must: ['inv-item-fact-sku'],
  },
  {
    id: 'cur-inv-main',
    type: 'cursor',
    file: 'cmd/inventory/main.go',
    line: 19, // fmt.Println(restock([]Item{{SKU: "A-1", Quantity: 2}}, 3))
    must: ['inv-main-diff'],
    nice: ['inv-main-intent', 'inv-restock-gotcha-copy'],
  },

  // ── (b) file in focus + a prompt about it ───────────────────────────────────────────────────
  {
    id: 'fq-db-email',
    type: 'file+text',
    file: 'src/db.ts',
    query: 'add a findCustomerByEmail function',
    must: ['db-query-constraint', 'db-findcustomer-decision-columns', 'db-findbyemail-deleted'],
    nice: ['db-findbyemail-old-gotcha', 'db-findcustomer-constraint-null'],
  },
  {
    id: 'fq-db-pool-exhausted',
    type: 'file+text',
    file: 'src/db.ts',
    query: 'why does the pool run out of connections under load',
    must: ['db-query-gotcha-release', 'db-pool-size-decision'],
    nice: ['db-query-diff-finally', 'db-pool-env-revert-decision', 'db-leak-test-gotcha', 'pool-acquire-fact-stub'],
  },
  {
    id: 'fq-db-transaction',
    type: 'file+text',
    file: 'src/db.ts',
    query: 'run the two inserts for a new order in one transaction',
    must: ['db-query-transactions-gotcha'],
    nice: ['db-query-constraint'],
  },
  {
    id: 'fq-db-tests-hang',
    type: 'file+text',
    file: 'src/db.ts',
    query: 'the test run hangs after the database tests finish',
    must: ['db-close-gotcha-jest'],
    nice: ['db-close-diff', 'db-leak-test-gotcha', 'pool-drain-gotcha'],
  },
  {
    id: 'fq-db-slowlog',
    type: 'file+text',
    file: 'src/db.ts',
    query: 'log slow queries with their parameters',
    must: ['db-query-slowlog-decision', 'proj-constraint-no-secrets'],
    nice: ['db-query-intent-slowlog'],
  },
  {
    id: 'fq-pool-health',
    type: 'file+text',
    file: 'src/pool.ts',
    query: "add a health check so acquire doesn't return dead connections",
    must: ['pool-acquire-gotcha-lifo', 'pool-acquire-fact-stub'],
    nice: ['pool-intent-health', 'pool-note-no-wait'],
  },
  {
    id: 'fq-pool-drain',
    type: 'file+text',
    file: 'src/pool.ts',
    query: 'make drain wait for checked-out connections',
    must: ['pool-drain-gotcha'],
    nice: ['db-close-diff', 'db-close-gotcha-jest', 'pool-note-no-wait'],
  },
  {
    id: 'fq-orders-discount',
    type: 'file+text',
    file: 'api/orders.py',
    query: 'add discount codes to the order total',
    must: ['orders-discount-decision', 'orders-money-glob'],
    nice: ['orders-intent-discount', 'orders-total-fact-tax', 'orders-total-gotcha-empty'],
  },
  {
    id: 'fq-orders-purge',
    type: 'file+text',
    file: 'api/orders.py',
    query: 'delete cancelled orders after 30 days to keep the table small',
    must: ['orders-cancel-constraint'],
    nice: ['orders-cancel-diff'],
  },
  {
    id: 'fq-orders-404',
    type: 'file+text',
    file: 'api/orders.py',
    query: 'an unknown order id returns a 500',
    must: ['orders-repo-get-gotcha'],
  },
  {
    id: 'fq-inv-nochange',
    type: 'file+text',
    file: 'cmd/inventory/main.go',
    query: "restock doesn't change the quantities",
    must: ['inv-restock-gotcha-copy'],
    nice: ['inv-restock-diff', 'inv-restock-decision-immutable', 'inv-main-diff'],
  },
  {
    id: 'fq-inv-writeoff',
    type: 'file+text',
    file: 'cmd/inventory/main.go',
    query: 'support negative amounts to write off damaged stock',
    must: ['inv-restock-constraint-negative'],
    nice: ['inv-restock-test-intent', 'inv-restock-decision-immutable'],
  },

  // ── (c) text only: a prompt or a search naming a symbol or a concept ────────────────────────
  {
    id: 'q-findcustomer-missing',
    type: 'text',
    query: 'what does findCustomer return for a missing id',
    must: ['db-findcustomer-constraint-null'],
    nice: ['db-findcustomer-diff-null', 'db-findcustomer-intent'],
  },
  {
    id: 'q-pool-size',
    type: 'text',
    query: 'how many connections does the database pool have',
    must: ['db-pool-size-decision', 'db-pool-env-revert-decision'],
    nice: ['db-pool-size-diff'],
  },
  {
    id: 'q-sql-strings',
    type: 'text',
    query: 'can I build SQL strings with template literals',
    must: ['db-query-constraint'],
    nice: ['db-query-decision-no-orm'],
  },
  {
    id: 'q-money',
    type: 'text',
    query: 'should money amounts be float or Decimal',
    must: ['orders-money-glob'],
    nice: ['orders-total-gotcha-empty', 'orders-total-diff-decimal'],
  },
  {
    id: 'q-cancel-symbol',
    type: 'text',
    query: 'OrderService.cancel',
    must: ['orders-cancel-constraint', 'orders-cancel-gotcha-shipped'],
    nice: ['orders-cancel-diff', 'orders-summary'],
  },
  {
    id: 'q-release-offbyone',
    type: 'text',
    query: 'Pool.release off by one',
    must: ['pool-release-diff'],
    nice: ['pool-release-constraint'],
  },
  {
    id: 'q-prod-db',
    type: 'text',
    query: 'which database do we use in production',
    must: ['proj-fact-postgres'],
    nice: ['db-params-fact'],
  },
  {
    id: 'q-orm',
    type: 'text',
    query: "why don't we use an ORM",
    must: ['db-query-decision-no-orm'],
    nice: ['old-orm-trial'],
  },
  {
    id: 'q-tax',
    type: 'text',
    query: 'does the order total include tax',
    must: ['orders-total-fact-tax'],
    nice: ['orders-discount-decision'],
  },
  {
    id: 'q-sku',
    type: 'text',
    query: 'what is an inventory SKU',
    must: ['inv-item-fact-sku'],
  },
  {
    id: 'q-log-dsn',
    type: 'text',
    query: 'can I log the database connection string while debugging',
    must: ['proj-constraint-no-secrets'],
  },
  {
    id: 'q-restock-copy',
    type: 'text',
    query: 'go range loop copy bug in restock',
    must: ['inv-restock-gotcha-copy'],
    nice: ['inv-restock-diff'],
  },

  // ── (d) open files in the editor as context ─────────────────────────────────────────────────
  {
    id: 'open-leak',
    type: 'open-files',
    openFiles: ['src/db.ts', 'src/pool.ts'],
    query: 'why are database connections leaking',
    must: ['db-query-gotcha-release', 'db-query-diff-finally'],
    nice: ['pool-drain-gotcha', 'pool-acquire-gotcha-lifo', 'db-leak-test-gotcha', 'pool-release-constraint'],
  },
  {
    id: 'open-cancel',
    type: 'open-files',
    openFiles: ['api/orders.py'],
    query: 'cancel an order',
    must: ['orders-cancel-constraint'],
    nice: ['orders-cancel-gotcha-shipped', 'orders-cancel-diff'],
  },
  {
    id: 'open-maxwait',
    type: 'open-files',
    openFiles: ['src/pool.ts', 'src/db.ts'],
    query: 'add a max wait to acquire',
    must: ['pool-note-no-wait'],
    nice: ['pool-acquire-gotcha-lifo', 'pool-acquire-fact-stub'],
  },
  {
    id: 'open-cursor-noise',
    type: 'open-files',
    file: 'cmd/inventory/main.go',
    line: 12, // item.Quantity += amount, with two unrelated files open
    openFiles: ['src/db.ts', 'api/orders.py'],
    must: ['inv-restock-gotcha-copy', 'inv-restock-constraint-negative'],
    nice: ['inv-restock-diff', 'inv-restock-decision-immutable', 'inv-restock-test-intent'],
  },
  {
    id: 'open-session-start',
    type: 'open-files',
    openFiles: ['api/orders.py', 'cmd/inventory/main.go'],
    must: ['orders-cancel-constraint', 'inv-restock-gotcha-copy', 'inv-restock-constraint-negative'],
    nice: ['orders-money-glob', 'orders-cancel-gotcha-shipped', 'orders-total-gotcha-empty', 'orders-discount-decision'],
  },
];
