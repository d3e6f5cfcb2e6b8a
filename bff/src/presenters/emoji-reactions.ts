import type { AwardEmoji } from '../../../shared/src/emoji-reactions.ts';
import type { AwardView } from '../services/planning/emoji-reactions.ts';
import { userWebUrl } from './users.ts';

export function presentAwardEmoji(v: AwardView, ctx: { baseUrl: string }): AwardEmoji {
  const a = v.award;
  return {
    id: a.id,
    name: a.name,
    user: { name: v.user.name, username: v.user.username, id: v.user.id, state: v.user.state, avatar_url: null, web_url: userWebUrl(ctx.baseUrl, v.user) },
    created_at: a.created_at,
    updated_at: a.updated_at,
    awardable_id: a.awardable_id,
    awardable_type: a.awardable_type as AwardEmoji['awardable_type'],
    // Custom emoji have a picture; the data set's emoji are characters.
    url: null,
  };
}
