import type { GroupAccessToken, GroupAccessTokenWithToken } from '../../../../shared/src/group-access-tokens.ts';
import type { PersonalAccessToken } from '../../../../shared/src/personal-access-tokens.ts';

/*
 * The reveal-once and rotate dialogs of group access tokens are reused as they are (imported,
 * not copied); they are typed for group tokens, so other tokens are shown to them in that shape.
 * A role does not apply to a personal token: the dialog's role line reads "No role" until the
 * dialog takes a narrower type (see the report: it belongs in web/src/components/).
 */
export function asGroupTokenShape(t: PersonalAccessToken): GroupAccessToken {
  return { ...t, access_level: 0, granular: false, resource_type: 'group', resource_id: 0 };
}

export function asRevealable(t: PersonalAccessToken & { token: string }): GroupAccessTokenWithToken {
  return { ...asGroupTokenShape(t), token: t.token };
}
