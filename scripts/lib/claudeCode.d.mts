export declare const CLAUDE_CODE_VERSION: string;
/** Where the `claude` binary is once installed (whether or not it is yet). */
export declare function claudeCodeBinary(): string;
/** Installs the pinned Claude Code CLI into .cache on first use (~15 s); returns the absolute path of `claude`. */
export declare function ensureClaudeCode(): Promise<string>;
