import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memoryServerEnv } from '../../server/src/runtime/memoryServerFlags';

describe("the memory server's environment", () => {
  it("gives glibc's malloc its thresholds on Linux, keeping every tunable the user set", () => {
    assert.deepEqual(memoryServerEnv({}, 'linux'), { GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=65536:glibc.malloc.trim_threshold=65536' });
    assert.deepEqual(memoryServerEnv({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.trim_threshold=1048576' }, 'linux'), {
      GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.trim_threshold=1048576:glibc.malloc.mmap_threshold=65536',
    });
    assert.deepEqual(memoryServerEnv({ GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=0:glibc.malloc.mmap_threshold=0' }, 'linux'), {}, 'both set by the user: nothing to add');
  });

  it('adds nothing elsewhere', () => {
    for (const platform of ['darwin', 'win32', 'freebsd'] as const) assert.deepEqual(memoryServerEnv({}, platform), {});
  });
});
