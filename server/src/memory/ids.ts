import { randomBytes } from '../util/hashing';
import type { MemoryId } from './types';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID-style id: sortable by creation time, unique without coordination between processes. */
export function newMemoryId(now: number = Date.now()): MemoryId {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const random = randomBytes(16);
  let rest = '';
  for (let i = 0; i < 16; i++) rest += CROCKFORD[random[i]! % 32];
  return `m_${time}${rest}` as MemoryId;
}

const ID_PATTERN = /^m_[0-9A-HJKMNP-TV-Z]{26}$/;

export function isMemoryId(value: string): value is MemoryId {
  return ID_PATTERN.test(value);
}
