import type { Member } from '../../../shared/src/members.ts';
import type { MemberWithUser } from '../services/access/members.ts';
import { presentUserBasic } from './users.ts';

export function presentMember({ member, user, createdBy }: MemberWithUser, baseUrl: string): Member {
  return {
    ...presentUserBasic(user, baseUrl),
    access_level: member.access_level,
    created_at: member.created_at,
    expires_at: member.expires_at,
    created_by: createdBy ? presentUserBasic(createdBy, baseUrl) : null,
    membership_state: 'active',
  };
}
