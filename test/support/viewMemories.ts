import type { ViewMemory } from '../../contracts/viewProtocol';

/** A memory as the panel and the timeline get it, with the fields a test names; the rest plain. */
export function viewMemoryOf(fields: Partial<ViewMemory> & Pick<ViewMemory, 'kind' | 'title'>): ViewMemory {
  const file = fields.files?.[0] ?? 'src/pool.ts';
  return {
    id: '01J00000000000000000000001',
    body: '',
    why: null,
    pin: 'none',
    source: 'user',
    status: 'active',
    files: [file],
    symbols: [],
    anchor: null,
    createdAt: 0,
    updatedAt: 0,
    bodyTruncated: false,
    sessionId: null,
    glob: null,
    change: null,
    place: file,
    candidate: false,
    ...fields,
  };
}
