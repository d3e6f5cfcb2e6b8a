import { useImperativeHandle, useState, type Ref } from 'react';
import { Alert, Button, CopyButton, Group, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { Dialog } from './Dialog.tsx';
import { formatDate, roleName } from '../format.ts';
import { IconAlert, IconCheck, IconCopy, IconEye, IconEyeOff } from './icons.tsx';
import { ScopeBadges } from './token-columns.tsx';

/**
 * A token with its plaintext: a group access token (with its role), a personal one, or a deploy
 * token (with the username it is used with).
 */
export interface RevealedToken {
  name: string;
  token: string;
  scopes: readonly string[];
  expires_at: string | null;
  access_level?: number;
  username?: string;
}

export interface TokenRevealHandle {
  /** Shows a token's plaintext once; it is held here only, and forgotten when the dialog closes. */
  show: (token: RevealedToken, how: 'created' | 'rotated') => void;
}

interface Shown {
  token: RevealedToken;
  how: 'created' | 'rotated';
}

/**
 * The one place a token's plaintext lives in the console: this dialog's own state. Nothing
 * else keeps it (no query cache, no storage), and closing the dialog drops it. It is masked until
 * asked for (someone may be looking at the screen); copying needs no showing.
 */
export function TokenRevealDialog({ ref, noun = 'Token' }: { ref: Ref<TokenRevealHandle>; /** What the title calls it: "Deploy token created…". */ noun?: string }) {
  const [shown, setShown] = useState<Shown | null>(null);
  const [visible, setVisible] = useState(false);
  useImperativeHandle(
    ref,
    () => ({
      show: (token, how) => {
        setVisible(false);
        setShown({ token, how });
      },
    }),
    [],
  );
  const close = () => setShown(null);
  const t = shown?.token;

  return (
    <Dialog
      opened={shown !== null}
      onClose={close}
      title={shown?.how === 'rotated' ? `${noun} rotated: copy the new token` : `${noun} created: copy it now`}
      size="lg"
      centered
      // Losing the token to a stray click would mean making another: only the buttons close this.
      closeOnClickOutside={false}
      closeOnEscape={false}
      transitionProps={{ duration: 0 }}
    >
      {t && (
        <Stack gap="md">
          <Alert color="orange" variant="light" icon={<IconAlert />} title="You will not see it again">
            {t.username === undefined
              ? 'Copy the token and store it somewhere safe, such as your CI’s secret variables.'
              : 'Store the username and token where the machine reads them.'}{' '}
            Once you close this dialog, Gatehouse cannot show the token again{shown?.how === 'rotated' ? '. The previous token has stopped working.' : '.'}
          </Alert>
          {t.username !== undefined && <TextInput label="Username" value={t.username} readOnly styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} />}
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <TextInput
              label={`New token “${t.name}”`}
              value={t.token}
              readOnly
              onFocus={(e) => e.currentTarget.select()}
              style={{ flex: 1 }}
              // Masked as a password field is, yet still a text field that can be selected and copied.
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', WebkitTextSecurity: visible ? 'none' : 'disc' } as React.CSSProperties }}
              autoComplete="off"
              spellCheck={false}
            />
            <Button
              variant="default"
              onClick={() => setVisible((v) => !v)}
              aria-label={visible ? 'Hide token' : 'Show token'}
              leftSection={visible ? <IconEyeOff size={16} /> : <IconEye size={16} />}
            >
              {visible ? 'Hide' : 'Show'}
            </Button>
            <CopyButton value={t.token} timeout={2000}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? 'Copied' : 'Copy to clipboard'} withArrow>
                  <Button
                    onClick={copy}
                    color={copied ? 'teal' : undefined}
                    leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                    aria-label={copied ? 'Token copied' : 'Copy token'}
                    data-autofocus
                  >
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
          <Group gap="lg" wrap="wrap">
            {t.access_level !== undefined && (
              <Text size="sm">
                <Text span c="dimmed">
                  Role{' '}
                </Text>
                {roleName(t.access_level)}
              </Text>
            )}
            <Text size="sm">
              <Text span c="dimmed">
                Expires{' '}
              </Text>
              {t.expires_at ? formatDate(t.expires_at) : 'Never'}
            </Text>
            <ScopeBadges scopes={t.scopes} />
          </Group>
          <Group justify="flex-end">
            <Button onClick={close}>I have copied it</Button>
          </Group>
        </Stack>
      )}
    </Dialog>
  );
}
