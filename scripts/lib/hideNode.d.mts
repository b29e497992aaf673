/** Fills `dir` with links to each program on env.PATH but `node`; returns the PATH to use (just `dir`). */
export declare function pathWithoutNode(dir: string, env?: NodeJS.ProcessEnv): string;
