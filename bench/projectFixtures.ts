/**
 * A mid-sized project made up deterministically from a seed, for benchmarks: a few hundred
 * source files (TypeScript, Python, Go) in nested folders, with classes, methods and functions
 * named the way real code is, and the vocabulary their memories and queries are written in.
 */

/** mulberry32: small, fast and good enough to make benchmark data reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Random = () => number;

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

export function between(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

export function capitalized(word: string): string {
  return word[0]!.toUpperCase() + word.slice(1);
}

export const DOMAINS: Readonly<Record<string, readonly string[]>> = {
  billing: ['invoice', 'charge', 'tax', 'discount', 'ledger', 'refund', 'subscription', 'coupon'],
  auth: ['session', 'token', 'credential', 'password', 'permission', 'role', 'login', 'grant'],
  search: ['query', 'index', 'ranking', 'synonym', 'facet', 'snippet', 'tokenizer', 'suggestion'],
  storage: ['blob', 'bucket', 'chunk', 'upload', 'manifest', 'snapshot', 'volume', 'object'],
  sync: ['cursor', 'change', 'conflict', 'replica', 'batch', 'checkpoint', 'delta', 'peer'],
  notifications: ['email', 'webhook', 'template', 'digest', 'recipient', 'channel', 'delivery', 'bounce'],
  analytics: ['event', 'metric', 'funnel', 'cohort', 'dashboard', 'sample', 'counter', 'report'],
  payments: ['payment', 'card', 'gateway', 'payout', 'dispute', 'settlement', 'currency', 'receipt'],
  accounts: ['account', 'profile', 'team', 'member', 'invite', 'plan', 'quota', 'organization'],
  catalog: ['product', 'variant', 'price', 'category', 'attribute', 'listing', 'bundle', 'sku'],
  orders: ['order', 'cart', 'checkout', 'lineItem', 'fulfillment', 'reservation', 'return', 'status'],
  shipping: ['shipment', 'parcel', 'carrier', 'label', 'route', 'address', 'rate', 'tracking'],
  inventory: ['stock', 'warehouse', 'transfer', 'allocation', 'supplier', 'restock', 'count', 'lot'],
  scheduler: ['job', 'schedule', 'queue', 'worker', 'lease', 'retry', 'deadline', 'timer'],
  gateway: ['request', 'route', 'proxy', 'limiter', 'header', 'upstream', 'circuit', 'timeout'],
  cache: ['entry', 'eviction', 'shard', 'key', 'ttl', 'warmup', 'region', 'lock'],
  config: ['setting', 'flag', 'secret', 'environment', 'override', 'schema', 'default', 'profile'],
  editor: ['document', 'cursor', 'selection', 'decoration', 'diagnostic', 'completion', 'hover', 'outline'],
};

const LAYERS: Readonly<Record<string, readonly string[]>> = {
  services: ['Service', 'Manager', 'Coordinator'],
  models: ['Model', 'Record', 'Entity'],
  handlers: ['Handler', 'Controller'],
  adapters: ['Adapter', 'Client'],
  utils: ['Utils', 'Helpers', 'Format'],
  jobs: ['Job', 'Worker'],
  routes: ['Routes', 'Router'],
  store: ['Store', 'Repository'],
};

export const ROOTS = ['src', 'src', 'packages/core/src', 'packages/web/src', 'services/api/src'];

export const VERBS = [
  'load', 'save', 'compute', 'validate', 'parse', 'render', 'retry', 'flush', 'schedule', 'resolve', 'apply', 'merge', 'fetch',
  'normalize', 'build', 'emit', 'handle', 'refresh', 'expire', 'reconcile', 'encode', 'decode', 'acquire', 'release', 'sync',
  'index', 'update', 'create', 'delete', 'find', 'list', 'cancel', 'register', 'dispatch', 'serialize', 'migrate', 'check', 'track',
];

export const ADJECTIVES = ['stale', 'pending', 'duplicate', 'partial', 'expired', 'missing', 'cached', 'invalid', 'concurrent', 'large', 'empty', 'nested', 'remote', 'default', 'legacy', 'slow'];

export const PROBLEMS = ['a race between two writers', 'an off-by-one at the page boundary', 'a timezone shift at midnight UTC', 'the retry storm after a deploy', 'an N+1 query on the list page', 'a memory leak in the listener map', 'rounding errors in minor units', 'a deadlock under load', 'lost updates on reconnect', 'a cache stampede on cold start'];

export type FileLanguage = 'typescript' | 'python' | 'go';

/** A generated source file: its path, the declarations it has (qualified names) and its text. */
export interface GeneratedFile {
  readonly path: string;
  readonly language: FileLanguage;
  readonly domain: string;
  readonly nouns: readonly string[];
  /** Qualified names as Engram's symbol tagging reports them: `InvoiceService.computeTax`, `parseInvoice`. */
  readonly symbols: readonly string[];
  /** Zero-based line of each declaration's first line, by qualified name. */
  readonly lines: ReadonlyMap<string, { readonly start: number; readonly end: number }>;
  readonly text: string;
}

interface ClassSpec {
  readonly name: string;
  readonly methods: readonly string[];
}

function renderTypescript(classes: readonly ClassSpec[], functions: readonly string[], nouns: readonly string[], random: Random) {
  const out: string[] = [`import { logger } from '../../logging';`, `import type { ${capitalized(nouns[0]!)}Options } from './types';`, ''];
  const lines = new Map<string, { start: number; end: number }>();
  for (const c of classes) {
    out.push(`/** ${capitalized(pick(random, VERBS))}s ${pick(random, nouns)} records and keeps them consistent. */`);
    const classStart = out.length;
    out.push(`export class ${c.name} {`, `  private readonly pending = new Map<string, number>();`, '');
    for (const m of c.methods) {
      const noun = pick(random, nouns);
      const start = out.length;
      out.push(`  async ${m}(${noun}Id: string, options: ${capitalized(nouns[0]!)}Options = {}): Promise<number> {`);
      for (let i = between(random, 4, 12); i > 0; i--) {
        out.push(`    const ${pick(random, ADJECTIVES)}${capitalized(pick(random, nouns))} = await this.${pick(random, c.methods)}(${noun}Id, { ...options, attempt: ${i} });`);
      }
      out.push(`    logger.debug('${m} done', { ${noun}Id });`, `    return this.pending.get(${noun}Id) ?? 0;`, '  }', '');
      lines.set(`${c.name}.${m}`, { start, end: out.length - 2 });
    }
    out.push('}', '');
    lines.set(c.name, { start: classStart, end: out.length - 2 });
  }
  for (const f of functions) {
    const noun = pick(random, nouns);
    const start = out.length;
    out.push(`export function ${f}(${noun}: string, limit = ${between(random, 2, 500)}): string[] {`);
    for (let i = between(random, 3, 9); i > 0; i--) out.push(`  if (${noun}.length > limit - ${i}) return [${noun}.slice(0, ${i})];`);
    out.push(`  return [${noun}];`, '}', '');
    lines.set(f, { start, end: out.length - 2 });
  }
  return { text: out.join('\n'), lines };
}

function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

function renderPython(classes: readonly ClassSpec[], functions: readonly string[], nouns: readonly string[], random: Random) {
  const out: string[] = ['import logging', '', 'log = logging.getLogger(__name__)', '', ''];
  const lines = new Map<string, { start: number; end: number }>();
  for (const c of classes) {
    const classStart = out.length;
    out.push(`class ${c.name}:`, `    """${capitalized(pick(random, VERBS))}s ${pick(random, nouns)} records."""`, '');
    for (const m of c.methods) {
      const start = out.length;
      out.push(`    def ${m}(self, ${pick(random, nouns)}_id, attempt=0):`);
      for (let i = between(random, 3, 9); i > 0; i--) out.push(`        ${pick(random, ADJECTIVES)}_${snakeCase(pick(random, nouns))} = self.${pick(random, c.methods)}(attempt + ${i})`);
      out.push('        return attempt', '');
      lines.set(`${c.name}.${m}`, { start, end: out.length - 2 });
    }
    lines.set(c.name, { start: classStart, end: out.length - 2 });
    out.push('');
  }
  for (const f of functions) {
    const start = out.length;
    out.push(`def ${f}(value, limit=${between(random, 2, 500)}):`);
    for (let i = between(random, 2, 7); i > 0; i--) out.push(`    if len(value) > limit - ${i}:`, `        return value[:${i}]`);
    out.push('    return value', '', '');
    lines.set(f, { start, end: out.length - 3 });
  }
  return { text: out.join('\n'), lines };
}

function renderGo(classes: readonly ClassSpec[], functions: readonly string[], nouns: readonly string[], random: Random, pkg: string) {
  const out: string[] = [`package ${pkg}`, '', 'import "context"', ''];
  const lines = new Map<string, { start: number; end: number }>();
  for (const c of classes) {
    const classStart = out.length;
    out.push(`type ${c.name} struct {`, `\tpending map[string]int`, '}', '');
    lines.set(c.name, { start: classStart, end: classStart + 2 });
    for (const m of c.methods) {
      const start = out.length;
      out.push(`func (s *${c.name}) ${m}(ctx context.Context, id string) (int, error) {`);
      for (let i = between(random, 3, 9); i > 0; i--) out.push(`\tif err := ctx.Err(); err != nil && len(id) > ${i} {`, `\t\treturn ${i}, err`, '\t}');
      out.push('\treturn s.pending[id], nil', '}', '');
      lines.set(`${c.name}.${m}`, { start, end: out.length - 2 });
    }
  }
  for (const f of functions) {
    const start = out.length;
    out.push(`func ${f}(value string) string {`, `\treturn value`, '}', '');
    lines.set(f, { start, end: out.length - 2 });
  }
  return { text: out.join('\n'), lines };
}

function generateFile(random: Random, index: number): GeneratedFile {
  const domain = pick(random, Object.keys(DOMAINS));
  const nouns = DOMAINS[domain]!;
  const layer = pick(random, Object.keys(LAYERS));
  const role = pick(random, LAYERS[layer]!);
  const noun = pick(random, nouns);
  const roll = random();
  const language: FileLanguage = roll < 0.8 ? 'typescript' : roll < 0.9 ? 'python' : 'go';
  const deeper = random() < 0.3 ? `/${pick(random, ['internal', 'v2', 'legacy', 'shared'])}` : '';
  const folder = `${pick(random, ROOTS)}/${domain}/${layer}${deeper}`;
  // An index suffix on collisions keeps paths unique without making every name odd.
  const stem = `${noun}${role}${index >= 200 ? index : ''}`;
  const className = capitalized(noun) + role;
  const classes: ClassSpec[] = [];
  for (let c = between(random, 1, 2); c > 0; c--) {
    const name = classes.length === 0 ? className : `${capitalized(pick(random, nouns))}${pick(random, ['Cache', 'Queue', 'Policy', 'Builder', 'Error', 'Reader'])}`;
    if (classes.some((k) => k.name === name)) continue;
    const methods = new Set<string>();
    for (let m = between(random, 4, 12); m > 0; m--) {
      const verb = pick(random, VERBS);
      const method = `${verb}${capitalized(pick(random, nouns))}`;
      methods.add(language === 'python' ? snakeCase(method) : language === 'go' ? capitalized(method) : method);
    }
    classes.push({ name, methods: [...methods] });
  }
  const functions = new Set<string>();
  for (let f = between(random, 2, 6); f > 0; f--) {
    const fn = `${pick(random, VERBS)}${capitalized(pick(random, nouns))}${pick(random, ['', 'Id', 'Key', 'List', 'Map'])}`;
    functions.add(language === 'python' ? snakeCase(fn) : language === 'go' ? capitalized(fn) : fn);
  }
  const rendered =
    language === 'typescript'
      ? renderTypescript(classes, [...functions], nouns, random)
      : language === 'python'
        ? renderPython(classes, [...functions], nouns, random)
        : renderGo(classes, [...functions], nouns, random, layer);
  const file = language === 'typescript' ? `${stem}.ts` : language === 'python' ? `${snakeCase(stem)}.py` : `${snakeCase(stem)}.go`;
  return { path: `${folder}/${file}`, language, domain, nouns, symbols: [...rendered.lines.keys()], lines: rendered.lines, text: `${rendered.text}\n` };
}

/** The project's files, unique paths, in a stable order. */
export function generateFiles(count: number, seed: number): GeneratedFile[] {
  const random = seededRandom(seed);
  const files: GeneratedFile[] = [];
  const seen = new Set<string>();
  for (let i = 0; files.length < count; i++) {
    const file = generateFile(random, i);
    if (seen.has(file.path)) continue;
    seen.add(file.path);
    files.push(file);
  }
  return files;
}
