/** Some ids name no memory; nothing was changed. */
export class UnknownMemoryError extends Error {
  override name = 'UnknownMemoryError';
  constructor(readonly ids: readonly string[]) {
    super(`no memory with id ${ids.join(', ')}`);
  }
}

/**
 * The action would break one of its rules (pinning a forgotten memory, archiving a hard pin,
 * an agent accepting a rule candidate, an empty title); nothing was changed. The message says
 * what to do instead.
 */
export class ActionRefusal extends Error {
  override name = 'ActionRefusal';
}
