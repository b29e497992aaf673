import type { Redactor } from '../../capture/redact';
import { parseMemoryRecord } from '../../memory/record';
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

/** An export's lines as batches of `size` memories ready to store; the last batch may be shorter or empty. */
export function* importBatches(lines: Iterable<ExportLine>, redactor: Redactor, size: number): Generator<ImportBatch> {
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
    batch.memories.push(prepareForImport(parsed.memory, redactor, tags));
    if (batch.memories.length >= size) {
      yield batch;
      batch = { memories: [], rejected: [] };
    }
  }
  yield batch;
}
