import pg from 'pg';

/** Writes that can change what a token may do: to users or access tokens, but not the mark of a token's use. */
const AUTH_WRITE = /^\s*(update|delete\s+from|truncate(\s+table)?)\s+"?(users|personal_access_tokens)"?[\s,;]/i;
const USAGE_MARK = /^\s*update "personal_access_tokens" set "last_used_at" = \$1 where "id" = \$2\s*$/;

/**
 * What a process knows of changes to users and access tokens, so that it may keep the token
 * lookups of PostgreSQL (a round trip on every API call) without ever answering from one that
 * is out of date:
 *
 * - other processes: the database's triggers (migration 021) send a notice on the channel
 *   `gatehouse_auth` when such a change commits; one connection per process listens for it;
 * - this process: its own writes count the moment their statement returns, and again when
 *   their transaction commits, before its caller can answer anyone (a notice could still be
 *   on its way then).
 *
 * Each change raises `generation`; a lookup is kept only with the generation read before its
 * query and used only while that is still the generation, so a lookup that raced a change is
 * never kept. Lookups are kept only while the notices are heard (`live`): a lost connection
 * raises the generation and stops keeping them until it is listening again.
 */
export class AuthChanges {
  generation = 0;
  live = false;
  #client: pg.Client | undefined;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;
  #delayMs = 250;
  /** Connections inside a transaction, and those of them that wrote to users or tokens. */
  readonly #inTransaction = new WeakSet<object>();
  readonly #wrote = new WeakSet<object>();

  constructor(private readonly connection: pg.ClientConfig) {}

  listen(): void {
    if (this.#closed || this.#client) return;
    const client = new pg.Client(this.connection);
    this.#client = client;
    const lost = () => {
      if (this.#client !== client) return;
      this.#client = undefined;
      this.#lose();
      client.end().catch(() => {});
      if (this.#closed) return;
      this.#retry = setTimeout(() => this.listen(), this.#delayMs).unref();
      this.#delayMs = Math.min(this.#delayMs * 2, 30_000);
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', () => this.generation++);
    client
      .connect()
      .then(() => client.query('listen gatehouse_auth'))
      .then(() => {
        if (this.#client !== client) return;
        this.live = true;
        this.generation++;
        this.#delayMs = 250;
      }, lost);
  }

  /** After a statement of this process (its text, on its connection) returned. */
  statementDone(connection: object, text: string): void {
    const head = text.trimStart().slice(0, 8).toLowerCase();
    if (head.startsWith('begin') || head.startsWith('start')) {
      this.#inTransaction.add(connection);
    } else if (head.startsWith('commit') || head.startsWith('rollback')) {
      this.#inTransaction.delete(connection);
      if (this.#wrote.delete(connection)) this.generation++;
    } else if ((head.startsWith('update') || head.startsWith('delete') || head.startsWith('truncate')) && AUTH_WRITE.test(text) && !USAGE_MARK.test(text)) {
      this.generation++;
      if (this.#inTransaction.has(connection)) this.#wrote.add(connection);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    this.#lose();
    await client?.end().catch(() => {});
  }

  #lose(): void {
    this.live = false;
    this.generation++;
  }
}
