/** The marketplace's name: `claude plugin install engram@engram`. */
export declare const MARKETPLACE: string;

/** Writes the marketplace folder `outDir` (replacing it) from a built dist/, with these better-sqlite3 bindings; returns the plugin folder. */
export declare function writePlugin(outDir: string, bindings: readonly string[]): Promise<string>;

/** Total size of a folder, in bytes. */
export declare function folderBytes(dir: string): number;
