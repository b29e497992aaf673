import { existsSync } from 'node:fs';
import path from 'node:path';
import { databasePathFor, resolveProjectRoot } from '../../paths/engramPaths';
import { repairDatabase } from '../../store/repairDatabase';
import { describeUnreadable } from '../../store/salvageReader';
import { stringOption, type CliIO, type ParsedArgs } from '../command';

/**
 * `engram doctor --repair`, said in one line: rebuilds the project's database when SQLite's integrity check fails,
 * with every memory that can still be read, and says what could not be. The project is found as
 * every command finds it, but its database is not opened the usual way: that would migrate it.
 */
export function repairProject(args: ParsedArgs, io: CliIO): string {
  const root = resolveProjectRoot(path.resolve(io.cwd, stringOption(args, 'project') ?? '.'), io.env);
  const file = databasePathFor(root, io.env);
  if (!existsSync(file)) {
    return `no memory database for ${root} yet (${file}): nothing to repair`;
  }
  const outcome = repairDatabase(file);
  if (!outcome.repaired) {
    return `${file} passed SQLite's integrity check: nothing to repair`;
  }
  const { memories } = outcome;
  const lost = memories.unreadable ? `, ${describeUnreadable(memories)}` : ', none lost';
  const partly = memories.incomplete ? `; ${memories.incomplete.toLocaleString('en')} kept without some of their files, symbols or pinned lines` : '';
  const others = outcome.damagedTables.length ? ` (some ${outcome.damagedTables.join(', ')} rows could not be read)` : '';
  return (
    `rebuilt ${file}: ${memories.read.toLocaleString('en')} memories kept${lost}${partly}; ` +
    `${outcome.otherRows.toLocaleString('en')} other records kept${others}; the damaged file is kept as ${outcome.damagedFile}`
  );
}
