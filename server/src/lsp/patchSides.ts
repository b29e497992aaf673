import { applyPatch, parsePatch, reversePatch, type StructuredPatch } from 'diff';

export interface PatchSides {
  readonly before: string;
  readonly after: string;
  /** 'file': the whole current file, with the change reversed out of it for `before`; 'hunks': the changed lines only. */
  readonly extent: 'file' | 'hunks';
}

/** Between hunks when only the hunks are shown: the same on both sides, so the diff editor treats it as unchanged. */
export const HUNK_GAP = '⋯';

/** A stored patch ends with "… N more lines … not kept" when it was capped; that line is not part of the patch. */
function withoutCapNote(patch: string): string {
  return patch.replace(/^… .*not kept \(patch capped at [^)]*\)\n?$/m, '');
}

function parsed(patch: string): StructuredPatch | null {
  try {
    const [first] = parsePatch(withoutCapNote(patch));
    return first && first.hunks.length ? first : null;
  } catch {
    // A body that is not a unified diff (hand-edited, or an old format) has no sides to show.
    return null;
  }
}

/** The old and new lines of each hunk, hunks separated by HUNK_GAP. */
function hunkSides(patch: StructuredPatch): PatchSides {
  const before: string[] = [];
  const after: string[] = [];
  patch.hunks.forEach((hunk, index) => {
    if (index > 0) {
      before.push(HUNK_GAP);
      after.push(HUNK_GAP);
    }
    for (const line of hunk.lines) {
      const text = line.slice(1);
      if (line.startsWith(' ')) {
        before.push(text);
        after.push(text);
      } else if (line.startsWith('-')) before.push(text);
      else if (line.startsWith('+')) after.push(text);
    }
  });
  return { before: `${before.join('\n')}\n`, after: `${after.join('\n')}\n`, extent: 'hunks' };
}

/**
 * Before and after texts of a diff memory's patch, for a diff editor. When the file as it is now
 * (`current`) still holds the change, the change is reversed out of it: the diff then shows the
 * change in the whole file. Otherwise (the lines moved on, the file is gone, the patch was capped)
 * the hunks alone. null when the text is not a patch.
 */
export function patchSides(patch: string, current: string | null, truncated: boolean): PatchSides | null {
  const structured = parsed(patch);
  if (!structured) return null;
  if (current !== null && !truncated) {
    const before = applyPatch(current, reversePatch(structured));
    if (before !== false && applyPatch(before, structured) === current) return { before, after: current, extent: 'file' };
  }
  return hunkSides(structured);
}
