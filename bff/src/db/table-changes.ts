import pg from 'pg';

/**
 * The tables whose changes every process hears of, and so whose reads it may keep (PostgreSQL
 * only). Users and access tokens send their notice on `gatehouse_auth` (migration 021), except
 * for the marks of use (a token's last_used_at, a user's last_sign_in_at): what is kept from
 * them must not show those. Groups, projects and members (migration 022), and feature flags
 * (migration 028), send theirs on `gatehouse_changes` for every insert, update, delete and
 * truncate. A test holds this list and the triggers equal.
 */
export const WATCHED_TABLES: ReadonlySet<string> = new Set(['users', 'personal_access_tokens', 'groups', 'projects', 'members', 'features', 'feature_actors']);
export const CHANGE_CHANNELS = ['gatehouse_auth', 'gatehouse_changes'] as const;

/** The tables a statement writes (its verb's table, and those of the writes in its `with` clauses). */
const WRITES = /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+"?(\w+)"?/gi;
/** The one write that marks a token's use: it changes nothing a kept read shows (and sends no notice). */
const USAGE_MARK = /^\s*update "personal_access_tokens" set "last_used_at" = \$1 where "id" = \$2\s*$/;

/**
 * What a process knows of changes to the watched tables, so that it may keep reads of them
 * (a round trip each on PostgreSQL) without ever answering from one that is out of date:
 *
 * - other processes: the database's triggers send a notice naming the table when a change
 *   commits; one connection per process listens for them;
 * - this process: its own writes count the moment their statement returns, and again when
 *   their transaction commits, before its caller can answer anyone (a notice could still be
 *   on its way then).
 *
 * Each table has a generation that every change raises, and a lost connection raises them all.
 * A read is kept with the generation of its tables taken before its query
 * (`generationOf`), and used only while that is still their generation: a read that raced a
 * change is never kept. Nothing is kept while the notices are not heard (`generationOf` is
 * undefined until the process listens again).
 */
export class TableChanges {
  #live = false;
  #base = 0;
  readonly #byTable = new Map<string, number>();
  #client: pg.Client | undefined;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;
  #delayMs = 250;
  /** Connections inside a transaction, and the watched tables each has written in it. */
  readonly #inTransaction = new WeakSet<object>();
  readonly #wrote = new WeakMap<object, Set<string>>();

  constructor(private readonly connection: pg.ClientConfig) {}

  get live(): boolean {
    return this.#live;
  }

  /** The generation of these tables now: equal later only if none of them changed. Undefined while nothing may be kept. */
  generationOf(tables: readonly string[]): number | undefined {
    if (!this.#live) return undefined;
    let generation = this.#base;
    for (const table of tables) generation += this.#byTable.get(table) ?? 0;
    return generation;
  }

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
    // A notice without a known table (an operator's bare NOTIFY) counts as a change to every table.
    client.on('notification', (n) => (n.payload && WATCHED_TABLES.has(n.payload) ? this.#changed(n.payload) : this.#base++));
    client
      .connect()
      .then(() => client.query(CHANGE_CHANNELS.map((c) => `listen ${c}`).join('; ')))
      .then(() => {
        if (this.#client !== client) return;
        this.#live = true;
        this.#base++;
        this.#delayMs = 250;
      }, lost);
  }

  /** After a statement of this process (its text, on its connection) returned. */
  statementDone(connection: object, text: string): void {
    const head = text.trimStart().slice(0, 8).toLowerCase();
    if (head.startsWith('select')) return;
    if (head.startsWith('begin') || head.startsWith('start')) {
      this.#inTransaction.add(connection);
    } else if (head.startsWith('commit') || (head.startsWith('rollback') && !/^\s*rollback\s+to\b/i.test(text))) {
      this.#inTransaction.delete(connection);
      const wrote = this.#wrote.get(connection);
      this.#wrote.delete(connection);
      for (const table of wrote ?? []) this.#changed(table);
    } else if (!USAGE_MARK.test(text)) {
      for (const [, table] of text.matchAll(WRITES)) {
        if (!WATCHED_TABLES.has(table!)) continue;
        this.#changed(table!);
        if (!this.#inTransaction.has(connection)) continue;
        let wrote = this.#wrote.get(connection);
        if (!wrote) this.#wrote.set(connection, (wrote = new Set()));
        wrote.add(table!);
      }
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

  #changed(table: string): void {
    this.#byTable.set(table, (this.#byTable.get(table) ?? 0) + 1);
  }

  #lose(): void {
    this.#live = false;
    this.#base++;
  }
}
