import { gemoji } from 'gemoji';
import type { Db } from '../../db/index.ts';
import type { AwardEmojiRow, UserRow } from '../../db/schema.ts';
import { isAdmin, type Actor } from '../../auth/actor.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { notFound, unauthorized } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';
import { usersById } from '../access/users.ts';
import { fireHookEvent } from '../webhooks/hook-delivery.ts';
import { emojiPayload, type Awardable, type AwardableType } from './emoji-reactions-payload.ts';

export type { Awardable, AwardableType };

/**
 * Emoji names of the maintained data set (gemoji), each alias leading to one stored name. The
 * stored name is the first made of letters, digits and `_`, so `+1` is `thumbsup` and `-1`
 * `thumbsdown`, as the platform names them.
 */
const CANONICAL: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  for (const e of gemoji) {
    const canonical = e.names.find((n) => /^[a-z0-9_]+$/.test(n)) ?? e.names[0];
    for (const n of e.names) map.set(n, canonical);
  }
  return map;
})();

/** The stored name of an emoji, or undefined for a name the data set does not know. */
export const emojiName = (name: string): string | undefined => CANONICAL.get(name.replace(/^:|:$/g, ''));

export interface AwardView {
  award: AwardEmojiRow;
  user: UserRow;
}

async function views(db: Db, rows: AwardEmojiRow[]): Promise<AwardView[]> {
  const users = await usersById(db, rows.map((r) => r.user_id));
  return rows.flatMap((award) => {
    const user = users.get(award.user_id);
    return user ? [{ award, user }] : [];
  });
}

const ofAwardable = (db: Db, a: Pick<Awardable, 'type' | 'id'>) =>
  db.selectFrom('award_emoji').selectAll().where('awardable_type', '=', a.type).where('awardable_id', '=', a.id);

export async function listAwards(db: Db, awardable: Awardable, page: PageRequest): Promise<Page<AwardView>> {
  const rows = await offsetPage(db, ofAwardable(db, awardable).orderBy('id'), page);
  return rows.mapAsync((items) => views(db, items));
}

export async function findAward(db: Db, awardable: Awardable, id: number): Promise<AwardView> {
  const row = await ofAwardable(db, awardable).where('id', '=', id).executeTakeFirst();
  const [view] = row ? await views(db, [row]) : [];
  // The platform finds it with ActiveRecord's find: a missing one is its generic 404.
  if (!view) throw notFound();
  return view;
}

/**
 * A reaction by the caller. An unknown name or a second identical reaction is the platform's
 * 404 with the validation message, since its API answers a failed award so.
 */
export async function addAward(db: Db, baseUrl: string, user: UserRow, awardable: Awardable, name: string): Promise<AwardView> {
  const stored = emojiName(name);
  if (!stored) throw notFound('Award Emoji Name is not a valid emoji name');
  const taken = await ofAwardable(db, awardable).where('user_id', '=', user.id).where('name', '=', stored).executeTakeFirst();
  if (taken) throw notFound('Award Emoji Name has already been taken');
  const now = nowIso();
  // Read before the transaction: the awardable's reads use the database handle, not the transaction's.
  const objects = await awardable.hookObjects(user);
  const award = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('award_emoji')
      .values({ name: stored, user_id: user.id, awardable_type: awardable.type, awardable_id: awardable.id, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    await fireEmojiEvent(trx, baseUrl, 'award', user, awardable, row, objects);
    return row;
  });
  return { award, user };
}

/** Only the reaction's author or an administrator removes it (others get the platform's 401). */
export async function removeAward(db: Db, baseUrl: string, actor: Actor, awardable: Awardable, view: AwardView): Promise<void> {
  if (!(isAdmin(actor) || actor.user?.id === view.award.user_id)) throw unauthorized();
  const objects = await awardable.hookObjects(view.user);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('award_emoji').where('id', '=', view.award.id).execute();
    await fireEmojiEvent(trx, baseUrl, 'revoke', view.user, awardable, view.award, objects);
  });
}

/** Removes the reactions of awardables that are going away (the awardable's own delete calls this). */
export async function removeAwardsOf(db: Db, type: AwardableType, ids: number[]): Promise<void> {
  if (ids.length) await db.deleteFrom('award_emoji').where('awardable_type', '=', type).where('awardable_id', 'in', ids).execute();
}

async function fireEmojiEvent(db: Db, baseUrl: string, event: 'award' | 'revoke', user: UserRow, awardable: Awardable, award: AwardEmojiRow, objects: Record<string, unknown>): Promise<void> {
  await fireHookEvent(db, { traversal: awardable.group.traversal, projectId: awardable.project.id }, 'emoji_events', emojiPayload(baseUrl, event, user, awardable, award, objects));
}
