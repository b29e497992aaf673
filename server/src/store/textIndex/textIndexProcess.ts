import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readImageFile, type TextIndexImage } from './textIndexImage';

/** The process's script: the bundle next to this one, or the source when run from source (tests). */
const WORKER_FILE = __filename.endsWith('.ts') ? path.join(__dirname, 'textIndexWorker.ts') : path.join(__dirname, 'text-index-worker.js');

export type TextIndexWorkerMessage = { readonly type: 'built' } | { readonly type: 'too large' } | { readonly type: 'failed'; readonly message: string };

/**
 * Builds the text index of the store in `databaseFile` in a process of its own
 * (textIndexWorker.ts), which writes it to a temporary file this process reads it from
 * (textIndexImage.ts); null when the store is too large for one. A process, not a thread: a
 * worker thread's heap and allocations stayed in the server's RSS after it ended (+320 MB at
 * 100,000 memories for a 100 MB index).
 */
export async function buildTextIndexImage(databaseFile: string): Promise<TextIndexImage | null> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'engram-text-index-'));
  try {
    const imageFile = path.join(folder, 'index');
    return (await runWorker(databaseFile, imageFile)) ? readImageFile(imageFile) : null;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Resolves to true once the process wrote the image, false when the store is too large for one. */
function runWorker(databaseFile: string, imageFile: string): Promise<boolean> {
  const child = fork(WORKER_FILE, [databaseFile, imageFile], {
    // From source (tests) the process needs the TypeScript loader; the bundle runs as it is.
    execArgv: WORKER_FILE.endsWith('.ts') ? ['--import', 'tsx'] : [],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
  // The server owns the process and its folder: neither outlives a server that stops while it
  // builds (a server killed outright leaves the folder to the process, textIndexWorker.ts).
  const stop = () => {
    child.kill();
    rmSync(path.dirname(imageFile), { recursive: true, force: true });
  };
  process.once('exit', stop);
  child.once('exit', () => process.removeListener('exit', stop));
  return new Promise((resolve, reject) => {
    let settled = false;
    child.once('message', (message: TextIndexWorkerMessage) => {
      settled = true;
      if (message.type === 'failed') reject(new Error(message.message));
      else resolve(message.type === 'built');
    });
    child.once('error', (error) => {
      settled = true;
      reject(error);
    });
    child.once('exit', (code) => {
      if (!settled) reject(new Error(`the text index process exited with ${code} before it was done${stderr ? `: ${stderr.trim()}` : ''}`));
    });
  });
}
