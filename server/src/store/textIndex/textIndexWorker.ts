/**
 * The memory server's text index build process (bundled as dist/text-index-worker.js): reading
 * every memory and tokenizing it makes a heap's worth of short-lived strings, which stayed in
 * the server's RSS (~3× what the index holds) when the server built it, and took ~50 ms slices of
 * its event loop for 15–25 s. Here the build has a process of its own, whose memory goes back
 * to the system when it exits; the index goes to the server as a file of flat arrays
 * (textIndexImage.ts), named by the server.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../database';
import { MemoryChangeLog } from '../memoryChangeLog';
import { ResidentTextIndex } from './residentTextIndex';
import { writeImageFile } from './textIndexImage';
import type { TextIndexWorkerMessage } from './textIndexProcess';

/** Whether the server took the message: false when it is gone (killed while the index was built). */
const post = (message: TextIndexWorkerMessage) =>
  new Promise<boolean>((resolve) => {
    if (!process.connected) return resolve(false);
    process.send!(message, (error: Error | null) => resolve(!error));
  });

async function run(): Promise<void> {
  const [databaseFile, imageFile] = process.argv.slice(2) as [string, string];
  let message: TextIndexWorkerMessage;
  try {
    const { db } = openDatabase(databaseFile);
    try {
      const resident = new ResidentTextIndex(db, new MemoryChangeLog(db));
      resident.buildNow();
      const image = resident.image();
      if (image) writeImageFile(imageFile, image);
      message = image ? { type: 'built' } : { type: 'too large' };
    } finally {
      db.close();
    }
  } catch (error) {
    message = { type: 'failed', message: (error as Error).message ?? String(error) };
  }
  if (await post(message)) process.disconnect();
  // No server reads the image: its folder (made by the server for this build) goes with it,
  // rather than tens of megabytes left in the temporary folder.
  else rmSync(path.dirname(imageFile), { recursive: true, force: true });
}

void run();
