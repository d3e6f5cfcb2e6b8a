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
const USAGE_MARK = /^\s*update "personal_access_tokens" set "last_used_at" = (?:\$1|\?) where "id" = (?:\$2|\?)\s*$/;

/**
 * Generations of the watched tables, raised by every change this process makes or hears of.
 * A read is kept with the generation of its tables taken before its query (`generationOf`),
 * and used only while that is still their generation: a read that raced a change is never
 * kept. Nothing is kept while `generationOf` is undefined.
 *
 * This process's own writes count the moment their statement returns, and again when their
 * transaction commits, before its caller can answer anyone. How other processes' changes are
 * learnt is the engine's: PostgreSQL's notices (TableChanges), SQLite's data version
 * (SqliteChanges).
 */
export abstract class ChangeClock {
  protected base = 0;
  protected readonly byTable = new Map<string, number>();
  /** Connections inside a transaction, and the watched tables each has written in it. */
  readonly #inTransaction = new WeakSet<object>();
  readonly #wrote = new WeakMap<object, Set<string>>();

  abstract get live(): boolean;

  /** A request begins: what it reads must not be older than its start (see SqliteChanges). */
  requestStarted(): void {}

  /** The generation of these tables now: equal later only if none of them changed. Undefined while nothing may be kept. */
  generationOf(tables: readonly string[]): number | undefined {
    if (!this.live) return undefined;
    let generation = this.base;
    for (const table of tables) generation += this.byTable.get(table) ?? 0;
    return generation;
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
      for (const table of wrote ?? []) this.changed(table);
    } else if (!USAGE_MARK.test(text)) {
      for (const table of this.tablesWritten(text)) {
        this.changed(table);
        if (!this.#inTransaction.has(connection)) continue;
        let wrote = this.#wrote.get(connection);
        if (!wrote) this.#wrote.set(connection, (wrote = new Set()));
        wrote.add(table);
      }
    }
  }

  /** The watched tables a write statement of this process may have changed. */
  protected tablesWritten(text: string): string[] {
    return [...text.matchAll(WRITES)].map(([, table]) => table!).filter((table) => WATCHED_TABLES.has(table));
  }

  protected changed(table: string): void {
    this.byTable.set(table, (this.byTable.get(table) ?? 0) + 1);
  }
}

/**
 * PostgreSQL: the database's triggers send a notice naming the table when a change commits;
 * one connection per process listens for them. A lost connection raises every generation,
 * and nothing is kept until the process listens again.
 */
export class TableChanges extends ChangeClock {
  #live = false;
  #client: pg.Client | undefined;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;
  #delayMs = 250;

  constructor(private readonly connection: pg.ClientConfig) {
    super();
  }

  get live(): boolean {
    return this.#live;
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
    client.on('notification', (n) => (n.payload && WATCHED_TABLES.has(n.payload) ? this.changed(n.payload) : this.base++));
    client
      .connect()
      .then(() => client.query(CHANGE_CHANNELS.map((c) => `listen ${c}`).join('; ')))
      .then(() => {
        if (this.#client !== client) return;
        this.#live = true;
        this.base++;
        this.#delayMs = 250;
      }, lost);
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
    this.#live = false;
    this.base++;
  }
}

/**
 * SQLite: the process reads the database through one connection, whose own writes it sees
 * (statementDone). Any other connection's commit — another process on the same file, an
 * operator's sqlite3 shell — changes the connection's data version (`PRAGMA data_version`);
 * a change raises every generation. The version is read at the first kept read of each
 * request, and again at the first of each turn of the event loop otherwise (jobs, timers),
 * not at every read: reading it is a read transaction (file locks, some 10 µs), and a request
 * answers from the database as it was when it began, whatever another process commits
 * meanwhile. A commit another process finished before a request began is always seen by it.
 *
 * A write here is told by its text, and SQLite's foreign keys cascade a delete into other
 * tables (a group's projects, a user's tokens) without a word: any delete (or replace, drop,
 * alter), and any write to a watched table, raises every generation, not only its table's.
 */
export class SqliteChanges extends ChangeClock {
  #version: number | undefined;
  #checked = false;
  readonly #uncheck = () => {
    this.#checked = false;
  };

  /** `dataVersion` reads PRAGMA data_version on the connection the process reads through. */
  constructor(private readonly dataVersion: () => number) {
    super();
  }

  get live(): boolean {
    return true;
  }

  override requestStarted(): void {
    this.#checked = false;
  }

  override generationOf(tables: readonly string[]): number | undefined {
    if (!this.#checked) {
      this.#checked = true;
      setImmediate(this.#uncheck);
      const version = this.dataVersion();
      if (version !== this.#version) {
        this.#version = version;
        this.base++;
      }
    }
    return super.generationOf(tables);
  }

  protected override tablesWritten(text: string): string[] {
    const head = text.trimStart().slice(0, 8).toLowerCase();
    if (!/^(insert|update|with)/.test(head)) return head.startsWith('pragma') || head.startsWith('savepoin') || head.startsWith('release') ? [] : [EVERY_TABLE];
    for (const [, verb, table] of text.matchAll(WRITES_WITH_VERB)) {
      if (/^(delete|truncate)/i.test(verb!) || WATCHED_TABLES.has(table!) || /\bor\s+replace\b|^\s*replace\b/i.test(text)) return [EVERY_TABLE];
    }
    return [];
  }

  protected override changed(table: string): void {
    if (table === EVERY_TABLE) this.base++;
    else super.changed(table);
  }
}
const EVERY_TABLE = '*';
const WRITES_WITH_VERB = /\b(insert\s+into|insert\s+or\s+\w+\s+into|replace\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+"?(\w+)"?/gi;
