import type { Redactor } from '../../secrets/redact';
import { parseMemoryRecord } from '../../memory/record';
import type { Memory } from '../../memory/types';
import type { ProjectPathCheck } from '../../paths/insideProject';
import { FtsTags } from '../../store/bulkImportTags';
import { prepareForImport, type PreparedMemory } from '../../store/preparedImport';
import type { ExportLine } from './exportLines';

/** A line of the export that was skipped, and why. */
export interface RejectedLine {
  readonly lineNumber: number;
  readonly error: string;
}

/** The next memories read, made ready to store, and the lines skipped since the batch before. */
export interface ImportBatch {
  readonly memories: PreparedMemory[];
  readonly rejected: RejectedLine[];
}

/** Why a memory's files or pinned lines are not places inside the project once links are followed, or null. */
export type PlaceCheck = (memory: Memory) => string | null;

/** A PlaceCheck of every file and the anchor's path against the project's real place. */
export function placeCheckOf(paths: ProjectPathCheck): PlaceCheck {
  return (memory) => {
    for (const [field, file] of [...memory.files.map((f) => ['files', f] as const), ...(memory.anchor ? [['anchor.path', memory.anchor.path] as const] : [])]) {
      const problem = paths.problem(file);
      if (problem) return `${field}: ${problem}`;
    }
    return null;
  };
}

/**
 * An export's lines as batches of `size` memories ready to store; the last batch may be shorter or
 * empty. A memory tied to a place outside the project (`checkPlaces`) is a rejected line.
 */
export function* importBatches(lines: Iterable<ExportLine>, redactor: Redactor, size: number, checkPlaces: PlaceCheck = () => null): Generator<ImportBatch> {
  const tags = new FtsTags();
  let batch: ImportBatch = { memories: [], rejected: [] };
  for (const line of lines) {
    if ('error' in line) {
      batch.rejected.push(line);
      continue;
    }
    if (!line.text.trim()) continue;
    const parsed = parseMemoryRecord(line.text);
    if (!parsed.ok) {
      batch.rejected.push({ lineNumber: line.lineNumber, error: parsed.error });
      continue;
    }
    const outside = checkPlaces(parsed.memory);
    if (outside) {
      batch.rejected.push({ lineNumber: line.lineNumber, error: outside });
      continue;
    }
    batch.memories.push(prepareForImport(parsed.memory, redactor, tags));
    if (batch.memories.length >= size) {
      yield batch;
      batch = { memories: [], rejected: [] };
    }
  }
  yield batch;
}
