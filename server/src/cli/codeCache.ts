import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/** A process still running after this long is a server: its cache is saved then, not at exit. */
const LONG_RUNNING_SAVE_MS = 5000;

/** Caches kept per bundle and Node version: the current build's and a few others still in use. */
const KEPT_BUILDS = 3;

/** Where to keep a bundle's compiled code, and the hash of the bundle's content it is valid for. */
export interface CodeCache {
  readonly dir: string;
  readonly contentHash: string;
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (error) {
    // No cache yet is the normal first run; an unreadable one is simply made again.
    void error;
    return undefined;
  }
}

/** Removes a file if it is there; anything in the way is left as it is. */
function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch (error) {
    // `force` ignores only a missing file: in a folder that cannot be read, or is a file, even looking fails.
    void error;
  }
}

/**
 * Writes atomically, then keeps only the newest few caches of this bundle for this Node: two
 * Engram installs (the extension's and a CLI's) may share the folder, and must not delete each
 * other's cache on every run. The file is opened before V8 serializes the code, so a folder that
 * cannot be written costs nothing. Never throws: it runs in an exit handler, where a throw would
 * print a crash on stderr (a hook must print nothing) and change the exit code.
 */
function writeCache(dir: string, name: string, sameBundle: (file: string) => boolean, data: () => Buffer): void {
  const temporary = path.join(dir, `${name}.${process.pid}.tmp`);
  let opened = false;
  try {
    mkdirSync(dir, { recursive: true });
    const fd = openSync(temporary, 'w');
    opened = true;
    try {
      writeFileSync(fd, data());
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path.join(dir, name));
    opened = false;
    const caches = readdirSync(dir).filter(sameBundle).map((file) => ({ file, mtime: statSync(path.join(dir, file)).mtimeMs }));
    caches.sort((a, b) => b.mtime - a.mtime);
    for (const { file } of caches.slice(KEPT_BUILDS)) rmSync(path.join(dir, file), { force: true });
  } catch (error) {
    // The cache only saves compile time: a read-only, full or misplaced folder must never fail a command.
    void error;
    if (opened) removeQuietly(temporary);
  }
}

/**
 * Loads a CommonJS bundle as `require` would, but through V8's code cache: the first run saves
 * the code V8 compiled (at exit, so the functions the command ran are in it), later runs skip
 * parsing and compiling the bundle. The cache file is named by the bundle's content hash and the
 * Node version, because V8 only checks that a cache's source has the same length before using it.
 */
export function requireBundle(file: string, cache: CodeCache): unknown {
  const base = path.basename(file, '.js');
  const suffix = `-${process.version}-${process.arch}.v8`;
  const name = `${base}-${cache.contentHash}${suffix}`;
  const source = readFileSync(file, 'utf8');
  // The build ends each bundle with its hash: a bundle of another build (a build under way, a
  // partial copy) must not meet this hash's cache, nor be saved under it.
  const cacheable = source.endsWith(`/* engram-bundle ${cache.contentHash} */\n`);
  const cachedData = cacheable ? readCache(path.join(cache.dir, name)) : undefined;
  const wrapper = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new vm.Script(wrapper, { filename: file, cachedData });
  const mod = new Module(file);
  mod.filename = file;
  script.runInThisContext().call(mod.exports, mod.exports, createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  if (cacheable && (cachedData === undefined || script.cachedDataRejected)) {
    const sameBundle = (other: string) => other.startsWith(`${base}-`) && other.endsWith(suffix);
    let saved = false;
    const save = () => {
      if (saved) return;
      saved = true;
      writeCache(cache.dir, name, sameBundle, () => script.createCachedData());
    };
    // A command saves at exit; a server (lsp, mcp) soon after it started, since it may be killed.
    process.once('exit', save);
    setTimeout(save, LONG_RUNNING_SAVE_MS).unref();
  }
  return mod.exports;
}
