import { Pool } from './pool';

const pool = new Pool({ max: 10 });

/** Runs one SQL statement with bound parameters. */
export async function query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
  const connection = await pool.acquire();
  try {
    return (await connection.execute(sql, params)) as T[];
  } finally {
    pool.release(connection);
  }
}

export async function findCustomer(id: number) {
  const rows = await query<{ id: number; name: string }>('SELECT id, name FROM customers WHERE id = ?', [id]);
  return rows[0] ?? null;
}

export async function close(): Promise<void> {
  await pool.drain();
}
