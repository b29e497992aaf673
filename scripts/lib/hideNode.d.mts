/** The real files of every `node` on PATH. */
export declare function nodesOnPath(env?: NodeJS.ProcessEnv): string[];
/** [command, args] that run `command args` with every `node` on PATH hidden (Linux, root). */
export declare function withoutNode(command: string, args: readonly string[], env?: NodeJS.ProcessEnv): [string, string[]];
