import { Avatar } from '@mantine/core';

/** The group's uploaded avatar, or its initial on a colour picked from its ID. */
const COLORS = ['brand', 'teal', 'grape', 'orange', 'cyan', 'pink', 'lime', 'violet'];

export function GroupAvatar({ id, name, url, size = 36 }: { id: number; name: string; url: string | null; size?: number }) {
  return (
    <Avatar src={url ?? undefined} alt="" size={size} radius="md" color={COLORS[id % COLORS.length]} variant="light">
      {name.charAt(0).toUpperCase()}
    </Avatar>
  );
}
