import { useState } from 'react';
import { Button, FileButton, Group, Input, Stack, Text } from '@mantine/core';
import type { GroupDetail } from '../../../../shared/src/groups.ts';
import { GroupAvatar } from '../../components/GroupAvatar.tsx';

/** What happens to the avatar on save: nothing, a new image, or removal. */
export type AvatarChange = { kind: 'keep' } | { kind: 'upload'; file: File; preview: string } | { kind: 'remove' };

const MAX_BYTES = 200 * 1024;
const TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp', 'image/x-icon', 'image/vnd.microsoft.icon', 'image/tiff'];

/**
 * The avatar is sent as a file, so it lives beside the form's values rather than in them.
 * The preview is a data: URL because the console's content policy allows no blob: images.
 */
export function AvatarField({
  group,
  change,
  onChange,
  error,
}: {
  group: GroupDetail;
  change: AvatarChange;
  onChange: (change: AvatarChange) => void;
  error: string | null;
}) {
  const [localError, setLocalError] = useState<string | null>(null);
  const shown = change.kind === 'upload' ? change.preview : change.kind === 'remove' ? null : group.avatar_url;

  const pick = (file: File | null) => {
    if (!file) return;
    if (!TYPES.includes(file.type)) {
      setLocalError('Choose a PNG, JPG, GIF, WebP, BMP, ICO or TIFF image.');
      return;
    }
    if (file.size > MAX_BYTES) {
      setLocalError(`The image is ${Math.ceil(file.size / 1024)} KiB; the limit is 200 KiB.`);
      return;
    }
    setLocalError(null);
    const reader = new FileReader();
    reader.onload = () => onChange({ kind: 'upload', file, preview: String(reader.result) });
    reader.readAsDataURL(file);
  };

  const message = localError ?? error;
  return (
    <Input.Wrapper label="Avatar" description="PNG, JPG, GIF, WebP, BMP, ICO or TIFF, up to 200 KiB." error={message}>
      <Group gap="md" mt="xs" wrap="nowrap" align="center">
        <GroupAvatar id={group.id} name={group.name} url={shown} size={64} />
        <Stack gap={6}>
          <Group gap="xs">
            <FileButton onChange={pick} accept={TYPES.join(',')}>
              {(props) => (
                <Button variant="default" size="xs" {...props}>
                  {shown ? 'Change avatar…' : 'Upload avatar…'}
                </Button>
              )}
            </FileButton>
            {(group.avatar_url || change.kind === 'upload') && change.kind !== 'remove' && (
              <Button
                variant="subtle"
                color="red"
                size="xs"
                onClick={() => {
                  setLocalError(null);
                  onChange(group.avatar_url ? { kind: 'remove' } : { kind: 'keep' });
                }}
              >
                Remove avatar
              </Button>
            )}
            {change.kind !== 'keep' && (
              <Button variant="subtle" size="xs" onClick={() => onChange({ kind: 'keep' })}>
                Undo
              </Button>
            )}
          </Group>
          {change.kind === 'upload' && (
            <Text size="xs" c="dimmed">
              {change.file.name} will be uploaded when you save.
            </Text>
          )}
          {change.kind === 'remove' && (
            <Text size="xs" c="dimmed">
              The avatar will be removed when you save.
            </Text>
          )}
        </Stack>
      </Group>
    </Input.Wrapper>
  );
}
