import { NativeSelect } from '@mantine/core';
import { Controller } from 'react-hook-form';
import {
  GROUP_ACCESS_TOKEN_DESCRIPTION_MAX,
  groupAccessTokenCreateBody,
  type GroupAccessTokenCreateInput,
  type GroupAccessTokenWithToken,
} from '../../../../shared/src/group-access-tokens.ts';
import { ACCESS_LEVELS, memberAccessLevels, ROLE_NAMES, SCOPE_DESCRIPTIONS, TOKEN_SCOPES } from '../../../../shared/src/roles.ts';
import type { GroupDetail } from '../../../../shared/src/groups.ts';
import { useCreateGroupAccessToken } from '../../api/group-access-tokens.ts';
import { sentence } from '../../format.ts';
import { expiryBounds } from '../../components/token-expiry.ts';
import { TokenFormDialog, tokenFormMeta } from '../../components/TokenFormDialog.tsx';

const ROLE_OPTIONS = memberAccessLevels.map((l) => ({ value: String(l), label: ROLE_NAMES[l] }));

const defaults = (): GroupAccessTokenCreateInput => ({ name: '', description: '', scopes: [], access_level: ACCESS_LEVELS.maintainer, expires_at: expiryBounds().max });

/** Creates a group access token: the shared token form with the role the token's bot member gets. */
export function CreateTokenDialog({
  group,
  opened,
  onClose,
  onCreated,
}: {
  group: Pick<GroupDetail, 'id' | 'full_name'>;
  opened: boolean;
  onClose: () => void;
  onCreated: (token: GroupAccessTokenWithToken) => void;
}) {
  const create = useCreateGroupAccessToken(group.id, { meta: tokenFormMeta(undefined, 'You need the Owner role to create access tokens for this group.') });
  return (
    <TokenFormDialog
      opened={opened}
      onClose={onClose}
      onCreated={onCreated}
      title="Create a group access token"
      formLabel="New group access token"
      intro={`The token acts as a bot member of ${group.full_name} with the role and scopes you choose. Use it in scripts and CI instead of a personal credential.`}
      schema={groupAccessTokenCreateBody}
      defaults={defaults}
      mutation={create}
      nameHint="Say what uses it, e.g. “release pipeline”."
      description={{ hint: 'Optional. Who owns it, what for, where it is stored.', max: GROUP_ACCESS_TOKEN_DESCRIPTION_MAX }}
      expiry="required"
      scopes={TOKEN_SCOPES}
      scopeHelp={SCOPE_DESCRIPTIONS}
      scopesHint="What the token may be used for. Grant the fewest that do the job."
      extraLabels={{ access_level: 'Role' }}
      extra={(form) => (
        <Controller
          control={form.control}
          name="access_level"
          render={({ field: { ref, ...field }, fieldState }) => (
            <NativeSelect
              ref={ref}
              label="Role"
              description="What the token may do in the group."
              data={ROLE_OPTIONS}
              value={String(field.value ?? ACCESS_LEVELS.maintainer)}
              onChange={(e) => field.onChange(Number(e.currentTarget.value))}
              onBlur={field.onBlur}
              error={sentence(fieldState.error?.message)}
            />
          )}
        />
      )}
    />
  );
}
