// A long Claude Code session built from the real sample transcripts (Claude Code 2.1.330): their
// turns repeated, each copy with fresh uuids and tool ids, and its Write and Edit results turned
// into edits of real TypeScript files (this repository's own store modules, several joined), so
// ingesting it makes diff memories with symbols — the work that made a first Stop hook take
// seconds on a transcript never read before.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SAMPLES = path.resolve(__dirname, '../../../../shared/data/claude-code');
const SOURCES = path.resolve(__dirname, '../../../server/src/store');
const SAMPLE_CWD = '/home/dev/project';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** Modules joined into one edited file: big enough that its diff and symbols cost what real ones do. */
const MODULES_PER_FILE = 8;

/** The parts of a sample record this rewrites. */
interface SampleRecord {
  type: string;
  sessionId?: string;
  toolUseResult?: Record<string, unknown>;
  message?: { content: { type: string; tool_use_id?: string; input?: { file_path?: string } }[] };
}

export interface LargeTranscript {
  readonly file: string;
  readonly bytes: number;
  /** The last Edit of the session, as PostToolUse reports it. */
  readonly lastEdit: { readonly toolUseId: string; readonly toolResponse: Record<string, unknown> };
}

/** Writes a session of at least `megabytes` MB at `file`, with its paths inside `root`. */
export function writeLargeTranscript(file: string, options: { readonly root: string; readonly sessionId: string; readonly megabytes: number }): LargeTranscript {
  const samples = ['write-edit-session.jsonl', 'autocompact-session.jsonl'].map((name) => readFileSync(path.join(SAMPLES, name), 'utf8').split('\n').filter(Boolean));
  const modules = readdirSync(SOURCES).filter((name) => name.endsWith('.ts')).sort().map((name) => readFileSync(path.join(SOURCES, name), 'utf8'));
  const joined = (start: number) => Array.from({ length: MODULES_PER_FILE }, (_, k) => modules[(start + k * 5) % modules.length]!).join('\n');
  const wanted = options.megabytes * 1024 * 1024;
  const lines: string[] = [];
  let bytes = 0;
  let lastEdit: LargeTranscript['lastEdit'] | undefined;
  for (let turn = 0; bytes < wanted; turn++) {
    const fresh = new Map<string, string>();
    const edited = path.join(options.root, 'src', `module${turn % 60}.ts`);
    const before = joined(turn + 3);
    const after = joined(turn);
    const firstLine = after.slice(0, after.indexOf('\n') + 1);
    for (const sample of samples[turn % samples.length]!) {
      const text = sample
        .replace(UUID, (uuid) => fresh.get(uuid) ?? (fresh.set(uuid, randomUUID()), fresh.get(uuid)!))
        .replace(/toolu_[A-Za-z0-9]+/g, (id) => `${id}_${turn}`)
        .replaceAll(SAMPLE_CWD, options.root);
      const record = JSON.parse(text) as SampleRecord;
      record.sessionId = options.sessionId;
      const result = record.toolUseResult as Record<string, unknown> | undefined;
      if (result?.type === 'create') Object.assign(result, { type: 'update', filePath: edited, content: after, originalFile: before });
      else if (result && 'oldString' in result) {
        Object.assign(result, { filePath: edited, originalFile: after, oldString: firstLine, newString: `${firstLine}// turn ${turn}\n`, structuredPatch: [] });
        const toolUseId = record.message!.content[0]!.tool_use_id!;
        lastEdit = { toolUseId, toolResponse: result };
      }
      if (record.type === 'assistant') for (const block of record.message!.content) if (block.type === 'tool_use' && block.input?.file_path) block.input.file_path = edited;
      const line = JSON.stringify(record);
      lines.push(line);
      bytes += Buffer.byteLength(line) + 1;
    }
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { file, bytes, lastEdit: lastEdit! };
}
