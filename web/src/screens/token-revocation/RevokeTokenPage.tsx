import { useState, type ReactNode } from 'react';
import { Alert, Badge, Button, Group, Paper, PasswordInput, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import type { z } from 'zod';
import type { GroupDetail } from '../../../../shared/src/groups.ts';
import { tokenRevocationBody, type RevokedToken } from '../../../../shared/src/token-revocation.ts';
import { isApiError } from '../../api/client.ts';
import { useRevokeLeakedToken } from '../../api/token-revocation.ts';
import { useUser } from '../../api/users.ts';
import { formatDate, sentence } from '../../format.ts';
import { IconAlert, IconCheck, IconFlame } from '../../components/icons.tsx';
import { notifySuccess } from '../../components/notify.ts';
import { errorMessage } from '../../components/states.tsx';
import { groupHref } from '../../paths.ts';
import { useGroupContext } from '../groups/group-context.ts';
import { RequireAbility, RoleForbidden } from '../../components/ResourcePage.tsx';

const FORBIDDEN_TITLE = 'You need the Owner role to revoke leaked tokens';
const FORBIDDEN_HINT = 'Leaked tokens are revoked by Owners of the top-level group and administrators.';

const TYPE_LABELS: Record<RevokedToken['token_type'], string> = {
  personal_access_token: 'Personal access token',
  group_access_token: 'Group access token',
  deploy_token: 'Deploy token',
  feed_token: 'Feed token',
};

type Body = z.input<typeof tokenRevocationBody>;
type Failure = { kind: 'not-found' } | { kind: 'forbidden' } | { kind: 'other'; message: string };

/** /groups/<full path>/-/revoke_token: paste a leaked credential, see what it was, and know it is revoked. */
export default function RevokeTokenPage() {
  const { group } = useGroupContext();
  return (
    <RequireAbility action="revoke_group_tokens" title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT}>
      <Stack gap="md">
        <div>
          <Title order={2} size="h3">
            Revoke a leaked token
          </Title>
          {group.parent_id === null && (
            <Text c="dimmed" size="sm" maw={680}>
              Found a token in a chat, an issue or a build log? Paste it here. If it is a personal or group access token, a deploy token or
              a feed token with access to {group.full_name} or anything inside it, it stops working at once and you see whose it was.
            </Text>
          )}
        </div>
        {group.parent_id === null ? <RevokeForm key={group.id} group={group} /> : <TopLevelOnly group={group} />}
      </Stack>
    </RequireAbility>
  );
}

function TopLevelOnly({ group }: { group: GroupDetail }) {
  const topPath = group.full_path.split('/')[0];
  const topName = group.full_name.split(' / ')[0];
  return (
    <Alert color="blue" variant="light" icon={<IconAlert />} title="Leaked tokens are revoked from the top-level group">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          {group.full_name} is a subgroup. A token is revoked through {topName}, the top-level group it belongs to; that covers every subgroup
          and project inside, including this one. It needs the Owner role in {topName}.
        </Text>
        <Button component={Link} to={groupHref(topPath, 'revoke_token')} variant="white" size="xs">
          Revoke a token in {topName}
        </Button>
      </Stack>
    </Alert>
  );
}

function RevokeForm({ group }: { group: GroupDetail }) {
  // The page shows every outcome in place.
  const revoke = useRevokeLeakedToken(group.id, { meta: { showsError: () => true } });
  const [result, setResult] = useState<RevokedToken | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const form = useForm<Body, unknown, z.output<typeof tokenRevocationBody>>({
    resolver: zodResolver(tokenRevocationBody),
    defaultValues: { token: '' },
  });

  const onValid = async ({ token }: { token: string }) => {
    setResult(null);
    setFailure(null);
    // The pasted value leaves the form as soon as it is sent, whatever the answer.
    form.reset({ token: '' });
    try {
      const revoked = await revoke.mutateAsync(token.trim());
      setResult(revoked);
      notifySuccess('Token revoked', `“${revoked.name}” (${TYPE_LABELS[revoked.token_type].toLowerCase()}) no longer works.`);
    } catch (e) {
      if (isApiError(e) && e.status === 401) return;
      if (isApiError(e) && e.status === 404) setFailure({ kind: 'not-found' });
      else if (isApiError(e) && e.status === 403) setFailure({ kind: 'forbidden' });
      else setFailure({ kind: 'other', message: errorMessage(e) });
    } finally {
      // The mutation's variables hold the plaintext: drop them.
      revoke.reset();
    }
  };

  if (failure?.kind === 'forbidden') return <RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />;

  return (
    <Stack gap="md" maw={760}>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <form onSubmit={form.handleSubmit(onValid)} noValidate aria-label="Token revocation">
          <Group align="flex-start" gap="sm" wrap="wrap">
            <PasswordInput
              label="Leaked token"
              description="The whole token as it leaked. It is sent once to be revoked; Gatehouse does not keep it."
              placeholder="gtpat-…"
              autoComplete="off"
              spellCheck={false}
              error={sentence(form.formState.errors.token?.message)}
              style={{ flex: '1 1 320px' }}
              {...form.register('token')}
            />
            <Button type="submit" color="red" loading={revoke.isPending} leftSection={<IconFlame size={16} />} mt={{ base: 0, sm: 46 }}>
              Revoke token
            </Button>
          </Group>
        </form>
      </Paper>

      {failure?.kind === 'not-found' && (
        <Alert color="orange" variant="light" icon={<IconAlert />} title="No credential with access to this group matches" role="alert">
          Nothing was revoked. Check that you pasted the whole token. A token that belongs to someone outside {group.full_name}, or that no
          longer exists, is not found here.
        </Alert>
      )}
      {failure?.kind === 'other' && (
        <Alert color="red" variant="light" icon={<IconAlert />} title="The token could not be revoked" role="alert">
          {failure.message}
        </Alert>
      )}
      {result && <RevokedDetails token={result} />}
    </Stack>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap" py={8} style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" ta="right" component="div" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

function Owner({ token }: { token: RevokedToken }) {
  const user = useUser(token.token_type === 'deploy_token' ? undefined : token.user_id);
  if (token.token_type === 'deploy_token') return <>{token.username ? `Deploy user ${token.username}` : '—'}</>;
  if (token.user_id === undefined) return <>—</>;
  if (user.data) {
    return (
      <>
        {user.data.name} <Text span c="dimmed">@{user.data.username} · user ID {token.user_id}</Text>
      </>
    );
  }
  return <>User ID {token.user_id}</>;
}

function RevokedDetails({ token }: { token: RevokedToken }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="revoked-token">
      <Group gap="sm" mb="xs" wrap="nowrap" align="flex-start">
        <ThemeIcon color="teal" variant="light" size={36} radius="xl" style={{ flexShrink: 0 }}>
          <IconCheck size={20} />
        </ThemeIcon>
        <div>
          <Title order={3} size="h4" id="revoked-token">
            “{token.name}” is revoked
          </Title>
          <Text size="sm" c="dimmed">
            It no longer works: anything that still uses it is refused. Replace it where it was needed, and find out how it leaked.
          </Text>
        </div>
      </Group>
      <Fact label="Type">{TYPE_LABELS[token.token_type]}</Fact>
      <Fact label="Name">{token.name}</Fact>
      <Fact label={token.token_type === 'group_access_token' ? 'Bot user' : 'Owner'}>
        <Owner token={token} />
      </Fact>
      {token.scopes && (
        <Fact label="Scopes">
          <Group gap={4} justify="flex-end">
            {token.scopes.map((s) => (
              <Badge key={s} variant="outline" color="gray" size="sm" tt="none" ff="monospace" fw={500}>
                {s}
              </Badge>
            ))}
          </Group>
        </Fact>
      )}
      <Fact label="Expires">{token.expires_at ? formatDate(token.expires_at) : 'Never'}</Fact>
      {token.created_at && <Fact label="Created">{formatDate(token.created_at)}</Fact>}
      {token.last_used_at !== undefined && <Fact label="Last used">{token.last_used_at ? formatDate(token.last_used_at) : 'Never'}</Fact>}
      <Fact label="Status">
        <Badge color="red" variant="light" size="sm">
          Revoked
        </Badge>
      </Fact>
    </Paper>
  );
}
