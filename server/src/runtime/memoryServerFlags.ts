/**
 * Node's flags for the memory server (`engram lsp`), given on its command line by whatever starts
 * it (the extension, the tests, the benches) before the script: Node and Electron as Node take
 * them there, and NODE_OPTIONS is the user's.
 *
 * A semi-space of 8 MB instead of V8's 16: a burst of requests (each recall allocates a few
 * hundred KB that dies young) grew the young generation to its largest, at the same latency.
 * The old generation grows by 40 % before its next full collection instead of V8's own factor
 * (up to 4× when collections are cheap): after a burst, a server kept ~90 MB of garbage at
 * 1,000,000 memories, with the same p50 (docs/performance.md has the numbers).
 */
export const MEMORY_SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8', '--heap-growing-percent=40'];

/** glibc's malloc settings for the memory server (GLIBC_TUNABLES), each unless the user set it. */
const GLIBC_MALLOC_TUNABLES: readonly (readonly [string, string])[] = [
  ['glibc.malloc.mmap_threshold', '65536'],
  ['glibc.malloc.trim_threshold', '65536'],
];

/**
 * What the memory server's environment adds to its starter's, on Linux: glibc's malloc gives
 * memory back to the system. By default it keeps what a freed block leaves at the top of its heap
 * up to a threshold that grows with the largest block freed, and V8's compilations of
 * tree-sitter's WebAssembly (the grammars' lexers are large functions) and of hot code free tens
 * of MB that way: the server kept ~20 MB more after its first parse, and 15–20 MB more after
 * 1,000 requests at 100,000 memories, with the same round trips (docs/performance.md).
 * Blocks of 64 KB and more are mapped on their own and unmapped when freed. glibc reads
 * GLIBC_TUNABLES as a process starts, so it is given here, not set by the server; musl, macOS and
 * Windows have allocators of their own and ignore it.
 */
export function memoryServerEnv(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Record<string, string> {
  if (platform !== 'linux') return {};
  const given = (env.GLIBC_TUNABLES ?? '').split(':').filter(Boolean);
  const named = new Set(given.map((t) => t.split('=')[0]));
  const added = GLIBC_MALLOC_TUNABLES.filter(([name]) => !named.has(name)).map(([name, value]) => `${name}=${value}`);
  return added.length ? { GLIBC_TUNABLES: [...given, ...added].join(':') } : {};
}
