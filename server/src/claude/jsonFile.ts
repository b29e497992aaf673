import { copyFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type JsonObject = Record<string, unknown>;

/** A settings file that cannot be read as a JSON object: Engram refuses to touch it. */
export class UnreadableSettingsError extends Error {}

/** The file's object, or {} when it does not exist. */
export function readJsonObject(file: string): { value: JsonObject; existed: boolean } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { value: {}, existed: false };
    throw error;
  }
  let value: unknown;
  try {
    value = text.trim() ? JSON.parse(text) : {};
  } catch (error) {
    throw new UnreadableSettingsError(`${file} is not valid JSON (${(error as Error).message}); fix it first — Engram will not overwrite it`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UnreadableSettingsError(`${file} does not hold a JSON object; Engram will not overwrite it`);
  return { value: value as JsonObject, existed: true };
}

/**
 * Writes atomically, after copying the old file into `backupDir` (Engram's data folder, so no
 * backups pile up in the user's repository); returns the backup's path.
 */
export function writeJsonObject(file: string, value: JsonObject, existed: boolean, backupDir: string): string | null {
  mkdirSync(path.dirname(file), { recursive: true });
  let backup: string | null = null;
  if (existed) {
    mkdirSync(backupDir, { recursive: true });
    const name = file.replace(/^[A-Za-z]:/, '').split(/[\\/]+/).filter(Boolean).join('_');
    backup = path.join(backupDir, `${name}.${new Date().toISOString().replace(/[:.]/g, '-')}`);
    copyFileSync(file, backup);
  }
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(temporary, file);
  return backup;
}
