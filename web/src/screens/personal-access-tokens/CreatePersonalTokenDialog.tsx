import type { z } from 'zod';
import { personalAccessTokenCreateBody } from '../../../../shared/src/personal-access-tokens.ts';
import { SCOPE_DESCRIPTIONS, TOKEN_SCOPES } from '../../../../shared/src/roles.ts';
import { daysFromToday } from '../../components/token-expiry.ts';
import type { RevealedToken } from '../../components/TokenRevealDialog.tsx';
import { TokenFormDialog, type TokenFormDialogProps } from '../../components/TokenFormDialog.tsx';

type Input = z.input<typeof personalAccessTokenCreateBody>;
type Body = z.output<typeof personalAccessTokenCreateBody>;

/** A month by default: long enough to be useful, short enough that a forgotten token dies. */
const defaults = (): Input => ({ name: '', description: '', scopes: [], expires_at: daysFromToday(30) });

/**
 * Creates a personal access token: for the signed-in user, or (from the admin area) for the user
 * the `mutation` posts to; `intro` says whom the token acts as.
 */
export function CreatePersonalTokenDialog({
  title = 'Create a personal access token',
  ...props
}: Pick<TokenFormDialogProps<Input, Body, RevealedToken>, 'opened' | 'onClose' | 'onCreated' | 'mutation' | 'intro'> & { title?: string }) {
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
      scopes={TOKEN_SCOPES}
      scopeHelp={SCOPE_DESCRIPTIONS}
    />
  );
}
