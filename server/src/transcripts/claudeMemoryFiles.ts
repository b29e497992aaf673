import { promises as fsp } from 'node:fs';
import { sha256Hex } from '../util/hashing';
import type { Dirent } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Memory } from '../memory/types';
import type { Project } from '../project';
import { mentionedFiles } from './extract/mentionedFiles';
import { encodeProjectFolder, projectsDir } from './projectFolder';
import type { Redactor } from '../secrets/redact';

/**
 * Claude Code's own memory: `<projects>/<encoded project>/memory/`, an index `MEMORY.md` plus
 * one Markdown file per fact with YAML front matter (name, description, type — sometimes under
 * `metadata:`). The layout is Claude Code's internal state, so parsing is permissive. Each fact
 * file becomes a `fact` memory, updated when the file changes and soft-forgotten when it goes.
 */

const INDEX_FILE = 'MEMORY.md';
const MAX_FILE_BYTES = 256 * 1024;
const SOURCE_PREFIX = 'claude-memory:';

export interface ClaudeMemoryFact {
  readonly file: string;
  readonly name: string | null;
  readonly description: string | null;
  readonly type: string | null;
  readonly body: string;
}

export interface MemorySyncResult {
  readonly added: number;
  readonly updated: number;
  readonly removed: number;
  /** Files that could not be read or parsed, with why; they are skipped, never fatal. */
  readonly problems: readonly string[];
}

export function claudeMemoryFolder(projectRoot: string, env: NodeJS.ProcessEnv): string {
  return path.join(projectsDir(env), encodeProjectFolder(path.resolve(projectRoot)), 'memory');
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

/** Splits front matter from the body; a file without valid front matter is all body. */
export function parseFact(file: string, content: string): ClaudeMemoryFact {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(content);
  let fields: Record<string, unknown> = {};
  if (match) {
    try {
      const parsed: unknown = parseYaml(match[1]!);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) fields = parsed as Record<string, unknown>;
    } catch {
      // Front matter that is not YAML: keep the whole file as the fact's text.
    }
  }
  const body = (match && Object.keys(fields).length ? content.slice(match[0].length) : content).trim();
  const metadata = fields.metadata && typeof fields.metadata === 'object' ? (fields.metadata as Record<string, unknown>) : {};
  return { file, name: text(fields.name), description: text(fields.description), type: text(fields.type) ?? text(metadata.type), body };
}

/** Redacted before it is cut to length: a cut secret is not recognized. */
function titleOf(fact: ClaudeMemoryFact, redactor: Redactor): string {
  const heading = /^#+\s+(.+)$/m.exec(fact.body)?.[1];
  const title = fact.description ?? fact.name ?? heading ?? fact.body.split('\n').find((l) => l.trim()) ?? fact.file;
  const flat = redactor.text(title).replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 119)}…` : flat;
}

async function listFacts(folder: string): Promise<Dirent[]> {
  try {
    return (await fsp.readdir(folder, { withFileTypes: true })).filter((e) => e.isFile() && e.name.endsWith('.md') && e.name !== INDEX_FILE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Brings the project's memories in line with Claude Code's memory folder. Cheap when nothing
 * changed (one stat per file: files are read only when their size or mtime moved since `seen`).
 */
export async function syncClaudeMemoryFiles(project: Project, env: NodeJS.ProcessEnv, seen: Map<string, string> = new Map()): Promise<MemorySyncResult> {
  const folder = claudeMemoryFolder(project.root, env);
  const problems: string[] = [];
  let added = 0;
  let updated = 0;
  let removed = 0;
  const present = new Set<string>();
  for (const entry of await listFacts(folder)) {
    const file = path.join(folder, entry.name);
    const ref = `${SOURCE_PREFIX}${entry.name}`;
    present.add(ref);
    try {
      const info = await fsp.stat(file);
      const stamp = `${info.size}:${info.mtimeMs}`;
      if (seen.get(file) === stamp && project.store.bySourceRef(ref)) continue;
      if (info.size > MAX_FILE_BYTES) throw new Error(`larger than ${MAX_FILE_BYTES / 1024} KiB`);
      const content = await fsp.readFile(file, 'utf8');
      const hash = sha256Hex(content);
      const fact = parseFact(entry.name, content);
      const existing = project.store.bySourceRef(ref);
      seen.set(file, stamp);
      if (existing && existing.meta.hash === hash && existing.status === 'active') continue;
      const fields = {
        title: titleOf(fact, project.redactor),
        body: fact.body,
        files: mentionedFiles(fact.body, project.root),
        meta: { hash, claudeMemory: { file: entry.name, name: fact.name, type: fact.type } },
      };
      if (existing) {
        project.store.update({ ...existing, ...fields, status: 'active', updatedAt: Math.trunc(info.mtimeMs) });
        updated++;
      } else {
        project.store.add({ kind: 'fact', source: 'claude', sourceRef: ref, importance: 0.6, why: 'From Claude Code\'s memory folder.', ...fields }, Math.trunc(info.mtimeMs));
        added++;
      }
    } catch (error) {
      problems.push(`${file}: ${(error as Error).message}`);
    }
  }
  for (const memory of project.store.bySourceRefPrefix(SOURCE_PREFIX)) {
    if (present.has(memory.sourceRef!) || memory.status !== 'active') continue;
    // Soft: the fact stays visible as forgotten and comes back if the file does.
    project.store.update({ ...memory, status: 'forgotten', updatedAt: Date.now(), meta: { ...memory.meta, removedFromClaudeMemory: true } } satisfies Memory);
    removed++;
  }
  return { added, updated, removed, problems };
}
