import type { CandidateRow } from '../../server/src/store/candidateRows';

/**
 * A scoring row's fields as a plain object, to compare rows by value: the memory server gives
 * them out as PackedRow objects, each a new one, whose id and tags are read when first asked.
 */
export function scoringRowFields(row: CandidateRow | undefined) {
  return (
    row && {
      rowid: row.rowid,
      id: row.id,
      kind: row.kind,
      pin: row.pin,
      status: row.status,
      importance: row.importance,
      updatedAt: row.updatedAt,
      files: [...row.files],
      symbols: [...row.symbols],
      anchor: row.anchor,
      glob: row.glob,
      soleFile: row.soleFile,
      soleFolder: row.soleFolder,
    }
  );
}
