import { useRef } from 'react';
import { Badge, Box, Menu, Text } from '@mantine/core';
import { useSignOut, type SessionUser } from '../api/session.ts';
import { IconLogout } from '../components/icons.tsx';
import { AccountButton } from './AccountButton.tsx';

/**
 * The account menu, loaded the first time it is opened (AppLayout): a menu is a popover, and its
 * positioning library is a tenth of the first load every screen shares. It opens as it arrives,
 * on the click that asked for it; from then on it is an ordinary menu.
 */
export default function AccountMenu({ user }: { user: SessionUser }) {
  // Opened as it mounts, the menu has no earlier focus to return to: it is given back to its button.
  const target = useRef<HTMLButtonElement>(null);
  const signOut = useSignOut({ meta: { errorTitle: 'Signing out failed' } });
  return (
    <Menu position="bottom-end" width={240} shadow="md" defaultOpened onClose={() => target.current?.focus()}>
      <Menu.Target>
        <AccountButton user={user} ref={target} />
      </Menu.Target>
      <Menu.Dropdown>
        {/* Plain boxes, not paragraphs: a menu may hold only its items and such groupings. */}
        <Box px="sm" py={6}>
          <Text size="sm" fw={600} component="div">
            {user.name}
          </Text>
          <Text size="xs" c="dimmed" component="div">
            @{user.username}
          </Text>
          {user.is_admin && (
            <Badge mt={6} size="xs" variant="light" color="grape" component="div">
              Administrator
            </Badge>
          )}
        </Box>
        <Menu.Divider />
        <Menu.Item leftSection={<IconLogout size={16} />} onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
