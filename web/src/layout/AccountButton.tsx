import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { Avatar, Group, Text, UnstyledButton } from '@mantine/core';
import type { SessionUser } from '../api/session.ts';
import { IconChevronDown } from '../components/icons.tsx';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');

/**
 * The header's account button: the user's initials and name. The same button before the menu's
 * code has loaded (AppLayout) and as the menu's target (AccountMenu), so nothing moves when it arrives.
 */
export const AccountButton = forwardRef<HTMLButtonElement, { user: SessionUser } & ComponentPropsWithoutRef<'button'>>(function AccountButton({ user, ...props }, ref) {
  return (
    // Named by what it shows (the user's name), then what it does.
    <UnstyledButton ref={ref} aria-label={`${user.name}, account menu`} aria-haspopup="menu" px={6} py={4} style={{ borderRadius: 8 }} {...props}>
      <Group gap={8} wrap="nowrap">
        <Avatar size={30} radius="xl" color="brand" aria-hidden="true">
          {initials(user.name)}
        </Avatar>
        <Text size="sm" fw={500} visibleFrom="xs">
          {user.name}
        </Text>
        <IconChevronDown size={14} />
      </Group>
    </UnstyledButton>
  );
});
