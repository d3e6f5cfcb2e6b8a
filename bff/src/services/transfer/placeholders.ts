import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import type { GroupRow, JobRow } from '../../db/schema.ts';
import { sendMail } from '../../mail/mailer.ts';
import { jobTicket, type JobDeps } from '../../queue/define.ts';
import { enqueue } from '../../queue/queue.ts';
import { badRequest } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';
import { parseCsv } from '../security/exports/csv-read.ts';

/**
 * Placeholder users, as on the platform: a person of an imported archive who is not a user
 * here holds their contributions (references to the rows that name them, left empty) and
 * memberships (the role they had) without any access, until an Owner of the top group
 * reassigns them to a user with the filled-in CSV; a durable job then moves both.
 */

/** The columns of the reassignment CSV, in order (the spec's "Placeholder reassignment CSV"). */
export const CSV_COLUMNS = ['Source host', 'Import type', 'Source user identifier', 'Source user name', 'Source username', 'Platform username', 'Platform public email'] as const;

/** The answer to an accepted CSV: the platform's message. */
export const REASSIGNMENT_ACCEPTED = 'The file is being processed and you will receive an email when completed.';

export const reassignTicket = jobTicket({ kind: 'placeholder_reassignment', payload: z.object({ namespace_id: z.number().int(), user_id: z.number().int() }), maxAttempts: 3 });

/** Someone an archive names: its id there, and what it says of them. */
export interface SourceUser {
  id: number;
  username: string | null;
  name: string | null;
  public_email: string | null;
}

/** Who a source user is here: a user (known by their email), or no one yet (a placeholder holds their part). */
export interface Contributor {
  sourceId: number | null;
  userId: number | null;
}

/** The people of one import, met as its records are read, in the import's transaction. */
export class Contributors {
  private readonly people = new Map<number, SourceUser>();
  private readonly users = new Map<number, number>();
  private readonly placeholders = new Map<number, number>();

  constructor(
    private readonly trx: Db,
    private readonly identity: { namespace_id: number; source_hostname: string; import_type: string },
  ) {}

  /** Notes what an archive says of someone (the first non-empty value of each field stays). */
  know(u: SourceUser | null): void {
    if (!u) return;
    const had = this.people.get(u.id);
    this.people.set(u.id, had ? { id: u.id, username: had.username ?? u.username, name: had.name ?? u.name, public_email: had.public_email ?? u.public_email } : u);
  }

  /** Finds the users here by the public email the archive gives (the platform's rule), a page of emails at a time. */
  async resolve(): Promise<void> {
    const byEmail = new Map<string, number[]>();
    for (const p of this.people.values()) {
      const email = p.public_email?.trim().toLowerCase();
      if (email) byEmail.set(email, [...(byEmail.get(email) ?? []), p.id]);
    }
    const emails = [...byEmail.keys()];
    for (let i = 0; i < emails.length; i += 500) {
      const page = emails.slice(i, i + 500);
      const found = await this.trx
        .selectFrom('users')
        .select(['id', sql<string>`lower(email)`.as('email')])
        .where(sql<string>`lower(email)`, 'in', page)
        .where('bot', '=', 0)
        .where('state', '=', 'active')
        .execute();
      for (const u of found) for (const sourceId of byEmail.get(u.email) ?? []) this.users.set(sourceId, u.id);
    }
  }

  userOf(sourceId: number | null): Contributor {
    if (sourceId === null) return { sourceId: null, userId: null };
    return { sourceId, userId: this.users.get(sourceId) ?? null };
  }

  /** Records that a placeholder holds the record's attribute (nothing when a user here holds it, or no one is named). */
  async hold(who: Contributor, model: 'Epic', recordId: number, attribute: 'author_id' | 'closed_by_id'): Promise<void> {
    if (who.sourceId === null || who.userId !== null) return;
    const source_user_id = await this.placeholder(who.sourceId);
    await this.trx.insertInto('import_placeholder_references').values({ source_user_id, model, record_id: recordId, attribute }).execute();
  }

  /** Records a placeholder's role in a group, given to the user it is reassigned to. */
  async holdMembership(who: Contributor, groupId: number, accessLevel: number, expiresAt: string | null): Promise<void> {
    if (who.sourceId === null) return;
    const source_user_id = await this.placeholder(who.sourceId);
    await this.trx.insertInto('import_placeholder_memberships').values({ source_user_id, group_id: groupId, access_level: accessLevel, expires_at: expiresAt }).execute();
  }

  private async placeholder(sourceId: number): Promise<number> {
    const cached = this.placeholders.get(sourceId);
    if (cached !== undefined) return cached;
    const p = this.people.get(sourceId);
    const now = nowIso();
    const key = { ...this.identity, source_user_identifier: String(sourceId) };
    await this.trx
      .insertInto('import_source_users')
      .values({ ...key, source_name: p?.name ?? null, source_username: p?.username ?? null, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['namespace_id', 'source_hostname', 'import_type', 'source_user_identifier']).doNothing())
      .execute();
    const row = await this.trx
      .selectFrom('import_source_users')
      .select('id')
      .where('namespace_id', '=', key.namespace_id)
      .where('source_hostname', '=', key.source_hostname)
      .where('import_type', '=', key.import_type)
      .where('source_user_identifier', '=', key.source_user_identifier)
      .executeTakeFirstOrThrow();
    this.placeholders.set(sourceId, row.id);
    return row.id;
  }
}

const csvField = (v: string | null) => (v === null || v === '' ? '' : /[",\r\n]/.test(v) || /^[=+\-@\t\r]/.test(v) ? `"${(/^[=+\-@\t\r]/.test(v) ? `'${v}` : v).replace(/"/g, '""')}"` : v);

/** The group's pending placeholders as the reassignment CSV (the last two columns empty, to be filled in). */
export async function placeholderCsv(db: Db, group: Pick<GroupRow, 'id'>): Promise<string> {
  const rows = await db
    .selectFrom('import_source_users')
    .select(['source_hostname', 'import_type', 'source_user_identifier', 'source_name', 'source_username'])
    .where('namespace_id', '=', group.id)
    .where('status', '=', 'pending_reassignment')
    .orderBy('id')
    .execute();
  const lines = [CSV_COLUMNS.join(','), ...rows.map((r) => [r.source_hostname, r.import_type, r.source_user_identifier, r.source_name, r.source_username, '', ''].map(csvField).join(','))];
  return `${lines.join('\n')}\n`;
}

/**
 * Checks a filled-in CSV whole (its columns, each filled row's placeholder and user) and, only
 * if all of it holds, marks those placeholders for reassignment and queues the job that moves
 * their contributions. Throws a 400 naming the first problem, having changed nothing.
 */
export async function requestReassignment(db: Db, group: Pick<GroupRow, 'id'>, uploaderId: number, text: string): Promise<number> {
  const rows = parseCsv(text.replace(/^\uFEFF/, '')).filter((r) => r.some((f) => f.trim() !== ''));
  const header = rows.shift()?.map((f) => f.trim());
  if (!header || header.length !== CSV_COLUMNS.length || header.some((h, i) => h !== CSV_COLUMNS[i])) {
    throw badRequest(`The CSV file must have the columns ${CSV_COLUMNS.join(', ')}, in that order`);
  }
  const moves: { sourceUserId: number; userId: number }[] = [];
  for (const [i, row] of rows.entries()) {
    const line = i + 2;
    if (row.length !== CSV_COLUMNS.length) throw badRequest(`Row ${line} of the CSV file does not have ${CSV_COLUMNS.length} columns`);
    const [host, type, identifier, , , username, email] = row.map((f) => f.trim());
    if (!username && !email) continue;
    const source = await db
      .selectFrom('import_source_users')
      .select('id')
      .where('namespace_id', '=', group.id)
      .where('source_hostname', '=', host)
      .where('import_type', '=', type)
      .where('source_user_identifier', '=', identifier)
      .where('status', '=', 'pending_reassignment')
      .executeTakeFirst();
    if (!source) throw badRequest(`Row ${line} of the CSV file names no placeholder user awaiting reassignment in this group`);
    let q = db.selectFrom('users').select('id').where('bot', '=', 0).where('state', '=', 'active');
    q = username ? q.where(sql<string>`lower(username)`, '=', username.toLowerCase()) : q.where(sql<string>`lower(public_email)`, '=', email.toLowerCase());
    const user = await q.executeTakeFirst();
    if (!user) throw badRequest(`Row ${line} of the CSV file names an unknown user: ${username || email}`);
    moves.push({ sourceUserId: source.id, userId: user.id });
  }
  if (!moves.length) throw badRequest('The CSV file assigns no placeholder user to anyone');
  await db.transaction().execute(async (trx) => {
    for (const m of moves) {
      await trx.updateTable('import_source_users').set({ status: 'reassignment_in_progress', reassign_to_user_id: m.userId, updated_at: nowIso() }).where('id', '=', m.sourceUserId).execute();
    }
    await enqueue(trx, reassignTicket, { namespace_id: group.id, user_id: uploaderId });
  });
  return moves.length;
}

/**
 * The reassignment job: each placeholder of the group marked for reassignment gives its
 * contributions and memberships to its user, one placeholder per transaction (a run cut short
 * goes on with those left), then the uploader is told by email when mail is configured.
 */
export async function runReassignment(deps: JobDeps & { job: JobRow }, payload: z.output<typeof reassignTicket.payload>): Promise<void> {
  const { db, config, logger } = deps;
  const pending = await db
    .selectFrom('import_source_users')
    .select(['id', 'reassign_to_user_id', 'source_username'])
    .where('namespace_id', '=', payload.namespace_id)
    .where('status', '=', 'reassignment_in_progress')
    .orderBy('id')
    .execute();
  let moved = 0;
  for (const s of pending) {
    const userId = s.reassign_to_user_id;
    await db.transaction().execute(async (trx) => {
      if (userId !== null) {
        for (const attribute of ['author_id', 'closed_by_id'] as const) {
          const refs = trx.selectFrom('import_placeholder_references').select('record_id').where('source_user_id', '=', s.id).where('model', '=', 'Epic').where('attribute', '=', attribute);
          await trx.updateTable('epics').set({ [attribute]: userId }).where('id', 'in', refs).execute();
        }
        const now = nowIso();
        const memberships = await trx.selectFrom('import_placeholder_memberships').selectAll().where('source_user_id', '=', s.id).execute();
        for (const m of memberships) {
          const existing = await trx.selectFrom('members').select(['id', 'access_level']).where('source_type', '=', 'group').where('source_id', '=', m.group_id).where('user_id', '=', userId).executeTakeFirst();
          if (!existing) {
            await trx
              .insertInto('members')
              .values({ source_type: 'group', source_id: m.group_id, user_id: userId, access_level: m.access_level, expires_at: m.expires_at, created_by_id: payload.user_id, created_at: now, updated_at: now })
              .execute();
          } else if (existing.access_level < m.access_level) {
            await trx.updateTable('members').set({ access_level: m.access_level, updated_at: now }).where('id', '=', existing.id).execute();
          }
        }
      }
      await trx.deleteFrom('import_placeholder_references').where('source_user_id', '=', s.id).execute();
      await trx.deleteFrom('import_placeholder_memberships').where('source_user_id', '=', s.id).execute();
      await trx.updateTable('import_source_users').set({ status: 'completed', updated_at: nowIso() }).where('id', '=', s.id).execute();
    });
    moved++;
  }
  const uploader = await db.selectFrom('users').select(['email', 'name']).where('id', '=', payload.user_id).executeTakeFirst();
  if (!uploader || !moved) return;
  try {
    await sendMail(config, {
      to: uploader.email,
      subject: 'Placeholder reassignments completed',
      text: `Hello ${uploader.name},\n\n${moved} placeholder user${moved === 1 ? ' was' : 's were'} reassigned: their contributions and memberships now belong to the users named in your CSV file.\n`,
    });
  } catch (e) {
    logger.warn({ err: e }, 'placeholder reassignment email could not be sent');
  }
}
