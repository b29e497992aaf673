export interface Connection {
  execute(sql: string, params: readonly unknown[]): Promise<unknown[]>;
}

export class Pool {
  private readonly idle: Connection[] = [];

  constructor(private readonly options: { max: number }) {}

  async acquire(): Promise<Connection> {
    return this.idle.pop() ?? { execute: async () => [] };
  }

  release(connection: Connection): void {
    if (this.idle.length < this.options.max) this.idle.push(connection);
  }

  async drain(): Promise<void> {
    this.idle.length = 0;
  }
}
