import type { UserRow } from '../db/schema.ts';
import type { User } from '../../../shared/src/users.ts';
import { bool } from '../util/rows.ts';

export const userWebUrl = (baseUrl: string, u: Pick<UserRow, 'username'>) => `${baseUrl}/${u.username}`;

export function presentUserBasic(u: UserRow, baseUrl: string) {
  return {
    id: u.id,
    username: u.username,
    name: u.name,
    state: u.state as User['state'],
    locked: false,
    avatar_url: null,
    web_url: userWebUrl(baseUrl, u),
  };
}

/**
 * A user as others see it; `full` (the user themself or an administrator) adds the private
 * fields such as email.
 */
export function presentUser(u: UserRow, baseUrl: string, opts: { full: boolean; customAttributes?: { key: string; value: string }[] }): User {
  // Added to the basic fields rather than spread from them: V8 copies a spread, then the
  // fields set after it, key by key (several times slower on the /user path).
  const out: User = Object.assign(presentUserBasic(u, baseUrl), {
    created_at: u.created_at,
    bio: u.bio,
    public_email: u.public_email,
    bot: bool(u.bot),
  });
  if (opts.full) {
    out.email = u.email;
    out.is_admin = bool(u.is_admin);
    out.last_sign_in_at = u.last_sign_in_at;
    out.last_activity_on = u.last_activity_on;
    out.can_create_group = bool(u.can_create_group);
    out.can_create_project = true;
    out.two_factor_enabled = false;
    out.external = bool(u.external);
  }
  if (opts.customAttributes) out.custom_attributes = opts.customAttributes;
  return out;
}
