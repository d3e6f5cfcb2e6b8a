import type { z } from 'zod';
import { personalAccessTokenCreateBody } from '../../../../shared/src/personal-access-tokens.ts';
import { PERSONAL_SCOPE_DESCRIPTIONS, PERSONAL_TOKEN_SCOPES, SCOPE_DESCRIPTIONS, TOKEN_SCOPES } from '../../../../shared/src/roles.ts';
import { daysFromToday } from '../../components/token-expiry.ts';
import type { RevealedToken } from '../../components/TokenRevealDialog.tsx';
import { TokenFormDialog, type TokenFormDialogProps } from '../../components/TokenFormDialog.tsx';

type Input = z.input<typeof personalAccessTokenCreateBody>;
type Body = z.output<typeof personalAccessTokenCreateBody>;

/** A month by default: long enough to be useful, short enough that a forgotten token dies. */
const defaults = (): Input => ({ name: '', description: '', scopes: [], expires_at: daysFromToday(30) });

/**
 * Creates a personal access token: for the signed-in user, or (from the admin area) for the user
 * the `mutation` posts to; `intro` says whom the token acts as. An administrator's token may
 * also have `sudo` (the server refuses it for anyone else's), so only theirs offers it.
 */
export function CreatePersonalTokenDialog({
  title = 'Create a personal access token',
  ownerIsAdmin,
  ...props
}: Pick<TokenFormDialogProps<Input, Body, RevealedToken>, 'opened' | 'onClose' | 'onCreated' | 'mutation' | 'intro'> & { title?: string; ownerIsAdmin: boolean }) {
  return (
    <TokenFormDialog
      {...props}
      title={title}
      formLabel="New personal access token"
      schema={personalAccessTokenCreateBody}
      defaults={defaults}
      nameHint="What uses it, e.g. “laptop scripts”."
      description={{ hint: 'Optional. Where it is stored, what for.', max: 255 }}
      expiry="required"
      scopes={ownerIsAdmin ? PERSONAL_TOKEN_SCOPES : TOKEN_SCOPES}
      scopeHelp={ownerIsAdmin ? PERSONAL_SCOPE_DESCRIPTIONS : SCOPE_DESCRIPTIONS}
    />
  );
}
