import { readFileSync } from 'node:fs';
import path from 'node:path';
import { relocateAnchor } from '../anchors/relocateAnchor';
import { completeMemory } from '../memory/newMemory';
import type { Anchor, Memory } from '../memory/types';
import type { TeamRecord } from './teamRecord';

/** The anchor as this clone's file has it now (the code may sit elsewhere than in the sharer's clone). */
export function anchorHere(root: string, anchor: Omit<Anchor, 'stale'>): Anchor {
  let text: string | null;
  try {
    text = readFileSync(path.join(root, ...anchor.path.split('/')), 'utf8');
  } catch {
    // Not in this checkout (yet): kept as shared, shown stale until the file appears.
    text = null;
  }
  return relocateAnchor({ ...anchor, stale: false }, text);
}

/** A memory this clone receives from a team record (the team file's or the hub's), dated as the record. */
export function memoryFromRecord(root: string, record: TeamRecord, sourceRef: string, meta: Record<string, unknown>, now: number): Memory {
  const base = completeMemory(
    {
      kind: record.kind,
      title: record.title,
      body: record.body,
      why: record.why,
      source: record.source,
      sourceRef,
      importance: record.importance,
      pin: record.pin,
      files: record.files,
      symbols: record.symbols,
      meta,
    },
    now,
  );
  return { ...base, anchor: record.anchor ? anchorHere(root, record.anchor) : null, createdAt: Date.parse(record.createdAt), updatedAt: Date.parse(record.updatedAt) };
}

/** A local memory with a team record's content; its id, status, dates and meta stay the caller's to set. */
export function withRecordContent(root: string, local: Memory, record: TeamRecord): Memory {
  return {
    ...local,
    kind: record.kind,
    title: record.title,
    body: record.body,
    why: record.why,
    pin: record.pin,
    importance: record.importance,
    files: record.files,
    symbols: record.symbols,
    anchor: record.anchor ? anchorHere(root, record.anchor) : null,
  };
}
