import { lstatSync, readFileSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { globMatcher } from '../util/globMatcher';
import { toProjectPath } from '../paths/engramPaths';

/**
 * Files Engram never captures, whatever the project's .gitignore says: dependencies, build
 * outputs, lockfiles, secrets, minified code and git's own folder. Picomatch globs matched
 * against project-relative '/'-separated paths with `dot: true`. `vendor/` is deliberately absent:
 * in Go and PHP projects it is often checked-in source people edit.
 */
export const DEFAULT_EXCLUDES: readonly string[] = [
  '**/.git/**',
  '**/node_modules/**',
  '**/dist/**',
  '**/build/**',
  '**/out/**',
  '**/target/**',
  '**/.next/**',
  '**/coverage/**',
  '**/__pycache__/**',
  '**/*.pyc',
  '**/.venv/**',
  '**/package-lock.json',
  '**/yarn.lock',
  '**/pnpm-lock.yaml',
  '**/Cargo.lock',
  '**/poetry.lock',
  '**/Gemfile.lock',
  '**/composer.lock',
  '**/go.sum',
  '**/.env',
  '**/.env.*',
  '**/*.min.js',
  '**/*.min.css',
  '**/*.map',
  // Engram's own team memory (team/teamFile.ts): read as memories, never recorded as a change.
  '**/.engram/**',
  // Personal Claude Code settings (Claude Code keeps them out of git); `engram connect claude`
  // writes Engram's hooks there, and Engram's own write is not a change worth remembering.
  '**/.claude/settings.local.json',
];

export type ExclusionReason =
  | { readonly kind: 'outside-project' }
  | { readonly kind: 'excluded'; readonly glob: string }
  | { readonly kind: 'gitignored'; readonly source: string /* which ignore file, project-relative */ };

export interface CaptureFilterOptions {
  /** User globs (the `engram.exclude` setting), added to DEFAULT_EXCLUDES. */
  readonly exclude?: readonly string[];
  /** Told about an ignore file that exists but cannot be read; its rules are then skipped. */
  readonly onWarning?: (message: string) => void;
}

interface GlobRule {
  readonly glob: string;
  readonly matches: (projectPath: string) => boolean;
}

/** The rules of one ignore file, and the project-relative folder its patterns are relative to. */
interface IgnoreSource {
  readonly file: string;
  readonly base: string;
  readonly text: string;
  readonly rules: Ignore;
  /** `rules` with given ancestor folders re-included, keyed by the parent folder; built on demand. */
  readonly withFoldersReincluded: Map<string, Ignore>;
}

type Verdict = ExclusionReason | null;

const GIT_INFO_EXCLUDE = '.git/info/exclude';

// git matches case-insensitively where the file system is case-insensitive (core.ignoreCase).
const CASE_INSENSITIVE = process.platform === 'win32' || process.platform === 'darwin';

/**
 * Decides which files of a project may be captured, following git's ignore rules (root and nested
 * .gitignore files, .git/info/exclude) plus Engram's own exclude globs.
 */
export class CaptureFilter {
  private readonly root: string;
  private readonly realRoot: string;
  private readonly globs: readonly GlobRule[];
  /** All globs in one matcher: most files match none, and one test is much cheaper than many. */
  private readonly anyGlob: (projectPath: string) => boolean;
  private readonly onWarning: (message: string) => void;
  /** Parsed .gitignore per project-relative folder ('' is the root); null when it has none. */
  private readonly gitignores = new Map<string, IgnoreSource | null>();
  /** Verdicts on folders, which every file below them shares. */
  private readonly folderVerdicts = new Map<string, Verdict>();
  /** Real paths of existing folders, so that a symlink check costs one lstat per file. */
  private readonly realFolders = new Map<string, string>();
  private infoExclude: IgnoreSource | null | undefined;

  constructor(projectRoot: string, options: CaptureFilterOptions = {}) {
    this.root = path.resolve(projectRoot);
    this.realRoot = realPathOrNull(this.root) ?? this.root;
    this.onWarning = options.onWarning ?? (() => undefined);
    const globs = [...DEFAULT_EXCLUDES, ...(options.exclude ?? [])];
    const globOptions = { dot: true, nocase: CASE_INSENSITIVE };
    this.globs = globs.map((glob) => ({ glob, matches: globMatcher(glob, globOptions) }));
    this.anyGlob = globMatcher(globs, globOptions);
  }

  /**
   * Why a file must not be captured, or null when it may be. `file` is absolute or
   * project-relative. Cheap per call: ignore files are read once per folder and cached.
   */
  exclusion(file: string): ExclusionReason | null {
    const projectPath = toProjectPath(this.root, file);
    if (projectPath === null || this.escapesThroughSymlink(path.resolve(this.root, file))) {
      return { kind: 'outside-project' };
    }
    const glob = this.anyGlob(projectPath) ? this.globs.find((rule) => rule.matches(projectPath)) : undefined;
    if (glob) return { kind: 'excluded', glob: glob.glob };
    return this.gitignoreVerdict(projectPath);
  }

  /** Forget cached ignore rules and folder links (call when a .gitignore or .git/info/exclude changes). */
  invalidate(): void {
    this.gitignores.clear();
    this.realFolders.clear();
    this.folderVerdicts.clear();
    this.infoExclude = undefined;
  }

  private escapesThroughSymlink(absolutePath: string): boolean {
    const folder = this.realFolder(path.dirname(absolutePath));
    // A path that does not exist (yet, or any more) has no link to follow.
    if (folder === null) return false;
    const isLink = lstatOrUndefined(absolutePath)?.isSymbolicLink() ?? false;
    const real = isLink ? realPathOrNull(absolutePath) : path.join(folder, path.basename(absolutePath));
    return real !== null && real !== this.realRoot && toProjectPath(this.realRoot, real) === null;
  }

  private realFolder(folder: string): string | null {
    const cached = this.realFolders.get(folder);
    if (cached !== undefined) return cached;
    // Missing folders are common (deleted files) and not remembered: one may appear later, as a
    // link to anywhere. Checking with lstat first spares realpath's costly ENOENT error.
    if (!lstatOrUndefined(folder)) return null;
    const real = realPathOrNull(folder);
    if (real !== null) this.realFolders.set(folder, real);
    return real;
  }

  /**
   * Walks the path from the root down, as git does: a folder found ignored ends the walk, so
   * nothing below it can be re-included and ignore files inside it are never read.
   */
  private gitignoreVerdict(projectPath: string): Verdict {
    const segments = projectPath.split('/');
    for (let depth = 1; depth < segments.length; depth++) {
      const verdict = this.folderVerdict(segments.slice(0, depth).join('/'));
      if (verdict) return verdict;
    }
    return this.decide(projectPath, false);
  }

  private folderVerdict(folder: string): Verdict {
    const cached = this.folderVerdicts.get(folder);
    if (cached !== undefined) return cached;
    const verdict = this.decide(folder, true);
    this.folderVerdicts.set(folder, verdict);
    return verdict;
  }

  /**
   * Asks the ignore files that apply to one path, deepest .gitignore first and .git/info/exclude
   * last; the first that has a rule for the path (ignoring or negating) decides, as in git.
   * Callers have already checked every parent folder, so none of them is ignored.
   */
  private decide(projectPath: string, isFolder: boolean): Verdict {
    for (const source of this.sourcesFor(projectPath)) {
      const relative = source.base === '' ? projectPath : projectPath.slice(source.base.length + 1);
      const result = ownRulesResult(source, relative, isFolder);
      if (result.ignored) return { kind: 'gitignored', source: source.file };
      if (result.unignored) return null;
    }
    return null;
  }

  private sourcesFor(projectPath: string): IgnoreSource[] {
    const folders = [''];
    const segments = projectPath.split('/');
    for (let depth = 1; depth < segments.length; depth++) folders.push(segments.slice(0, depth).join('/'));
    const sources: IgnoreSource[] = [];
    for (const folder of folders.reverse()) {
      const source = this.gitignoreIn(folder);
      if (source) sources.push(source);
    }
    const info = this.infoExcludeSource();
    if (info) sources.push(info);
    return sources;
  }

  private gitignoreIn(folder: string): IgnoreSource | null {
    let source = this.gitignores.get(folder);
    if (source === undefined) {
      source = this.loadIgnoreFile(folder === '' ? '.gitignore' : `${folder}/.gitignore`, folder);
      this.gitignores.set(folder, source);
    }
    return source;
  }

  private infoExcludeSource(): IgnoreSource | null {
    if (this.infoExclude === undefined) this.infoExclude = this.loadIgnoreFile(GIT_INFO_EXCLUDE, '');
    return this.infoExclude;
  }

  private loadIgnoreFile(file: string, base: string): IgnoreSource | null {
    let text: string;
    try {
      text = readFileSync(path.join(this.root, file), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Most folders have no ignore file; `.git` is a file in worktrees, which gives ENOTDIR.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        this.onWarning(`Engram could not read ${file}, so its ignore rules are not applied: ${String(error)}`);
      }
      return null;
    }
    return { file, base, text, rules: newIgnore(text), withFoldersReincluded: new Map() };
  }
}

function newIgnore(fileText: string): Ignore {
  return ignore({ ignorecase: CASE_INSENSITIVE }).add(fileText);
}

/**
 * What one ignore file's rules say about the path itself. `ignore` also reports a path ignored
 * when this file ignores a parent folder, but a deeper ignore file may have re-included that
 * folder (root `gen/`, `pkg/.gitignore` `!gen/`): git then judges the path by the rules that
 * match it alone, which is what re-including the ancestors in a copy of the rules gives.
 */
function ownRulesResult(source: IgnoreSource, relative: string, isFolder: boolean): ReturnType<Ignore['test']> {
  const target = isFolder ? `${relative}/` : relative;
  const result = source.rules.test(target);
  const slash = relative.lastIndexOf('/');
  if (!result.ignored || slash < 0) return result;
  const parent = relative.slice(0, slash);
  if (!source.rules.test(`${parent}/`).ignored) return result;
  let reincluded = source.withFoldersReincluded.get(parent);
  if (!reincluded) {
    const ancestors = parent.split('/').map((_, index, parts) => parts.slice(0, index + 1).join('/'));
    // Two add() calls: in an array, `ignore` takes each string as one pattern, newlines and all.
    reincluded = newIgnore(source.text).add(ancestors.map((folder) => `!/${escapePattern(folder)}/`));
    source.withFoldersReincluded.set(parent, reincluded);
  }
  return reincluded.test(target);
}

/** A literal path as a gitignore pattern: wildcards, escapes and trailing spaces taken literally. */
function escapePattern(literal: string): string {
  return literal.replace(/[\\*?[\]!# ]/g, '\\$&');
}

const UNRESOLVABLE: ReadonlySet<string> = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'EACCES']);

function lstatOrUndefined(absolutePath: string): Stats | undefined {
  try {
    return lstatSync(absolutePath, { throwIfNoEntry: false });
  } catch (error) {
    // A file where a folder should be, a link loop or a forbidden folder: nothing to resolve here.
    if (UNRESOLVABLE.has((error as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw error;
  }
}

function realPathOrNull(absolutePath: string): string | null {
  try {
    return realpathSync.native(absolutePath);
  } catch (error) {
    // Missing, a link loop or a forbidden folder: nothing to resolve; reading it will report why.
    if (UNRESOLVABLE.has((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
}
