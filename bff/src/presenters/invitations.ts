import type { Invitation } from '../../../shared/src/invitations.ts';
import type { InvitationWithCreator } from '../services/access/invitations.ts';

/** The platform's Invitation entity, its token left out: the token is in the invitation's email only. */
export function presentInvitation({ invitation, createdByName }: InvitationWithCreator): Invitation {
  return {
    id: invitation.id,
    invite_email: invitation.invite_email,
    created_at: invitation.created_at,
    access_level: invitation.access_level,
    expires_at: invitation.expires_at,
    created_by_name: createdByName,
  };
}
