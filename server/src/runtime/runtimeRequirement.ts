/**
 * better-sqlite3 13 is built for Node-API 10, which Node has from 22.14 on (and every VS Code
 * since 1.101): an older runtime does not refuse the binding, it crashes loading it (SIGSEGV).
 */
export const MIN_NODE_API = 10;
export const MIN_NODE_VERSION = '22.14';

export function canLoadSqlite(versions: NodeJS.ProcessVersions = process.versions): boolean {
  return Number(versions.napi) >= MIN_NODE_API;
}
