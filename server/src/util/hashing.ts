import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * Loading node:crypto costs a short command ~7 ms (it pulls in streams), more than the rest of
 * a hook's start. Short texts (paths, anchors) are hashed in JS; long ones (file contents) by
 * node:crypto, loaded on first use, which is much faster per byte. Both give the same digest.
 */
const NATIVE_FROM_CHARS = 4096;

function nodeCrypto(): typeof import('node:crypto') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
  return require('node:crypto') as typeof import('node:crypto');
}

/** SHA-256 of the text's UTF-8 bytes, as lowercase hex. */
export function sha256Hex(text: string): string {
  if (text.length < NATIVE_FROM_CHARS) return bytesToHex(sha256(utf8ToBytes(text)));
  return nodeCrypto().createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Cryptographically strong random bytes. */
export function randomBytes(count: number): Uint8Array {
  return nodeCrypto().randomBytes(count);
}

/** SHA-256 of bytes, as lowercase hex. */
export function sha256HexOfBytes(bytes: Uint8Array): string {
  if (bytes.length < NATIVE_FROM_CHARS) return bytesToHex(sha256(bytes));
  return nodeCrypto().createHash('sha256').update(bytes).digest('hex');
}
