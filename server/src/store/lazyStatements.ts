import type { Statement } from 'better-sqlite3';

/**
 * A store's statements, each prepared when first used. A hook or a CLI command uses a handful of
 * the ~100 statements Engram's stores hold, and preparing all of them up front cost it several
 * milliseconds of a start that must stay close to a bare `node -e 0`.
 */
export function lazyStatements<K extends string>(factories: Readonly<Record<K, () => Statement>>): Readonly<Record<K, Statement>> {
  const statements = {} as Record<K, Statement>;
  for (const key of Object.keys(factories) as K[]) {
    Object.defineProperty(statements, key, {
      configurable: true,
      enumerable: true,
      get() {
        const statement = factories[key]();
        Object.defineProperty(statements, key, { value: statement, enumerable: true });
        return statement;
      },
    });
  }
  return statements;
}
