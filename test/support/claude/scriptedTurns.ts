import type { ScriptRule } from './standInApi';

/** Claude's reason for the scripted pool-size edit: the why its diff memory must carry. */
export const POOL_SIZE_REASON = 'I decided to read POOL_SIZE from the environment because operators must tune the pool without a rebuild.';

/**
 * One turn of a scripted Claude: asked to make the pool size configurable, it reads `db` (the
 * demo's src/db.ts), states its reason and edits the pool's size — the Edit a hook records as a
 * diff memory with that reason as its why.
 */
export function poolSizeEditRules(db: string): ScriptRule[] {
  return [
    { lastUserIncludes: 'pool size', reply: { text: POOL_SIZE_REASON, toolUses: [{ name: 'Read', input: { file_path: db } }] } },
    { afterToolResultOf: 'Read', reply: { toolUses: [{ name: 'Edit', input: { file_path: db, old_string: 'new Pool({ max: 10 })', new_string: 'new Pool({ max: Number(process.env.POOL_SIZE ?? 10) })' } }] } },
    { afterToolResultOf: 'Edit', reply: { text: 'Done.' } },
  ];
}
