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
