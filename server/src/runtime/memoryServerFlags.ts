/**
 * Node's flags for the memory server (`engram lsp`), given on its command line by whatever starts
 * it (the extension, the tests, the benches) before the script: Node and Electron as Node take
 * them there, and NODE_OPTIONS is the user's.
 *
 * A semi-space of 8 MB instead of V8's 16: a burst of requests (each recall allocates a few
 * hundred KB that dies young) grew the young generation to its largest, at the same latency
 * (docs/performance.md has the numbers).
 */
export const MEMORY_SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];
