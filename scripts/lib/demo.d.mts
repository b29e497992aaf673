/** The seeded hard constraint: pinned to `query()` in src/db.ts (lines 5–13). */
export declare const DEMO_CONSTRAINT: string;

/** Copies demo/ to `workspaceDir` and seeds memories through the real CLI into `engramHome`. */
export declare function prepareDemo(options: { workspaceDir: string; engramHome: string; node?: string }): { workspaceDir: string; engramHome: string; ids: string[] };
