import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { ExportsPanel } from './ExportsPanel.tsx';

/** /security/exports: exports of the projects on the user's own security dashboard. */
export default function DashboardExportsPage() {
  usePageTitle('Exports');
  return (
    <Stack gap="xs">
      <ExportsPanel scope={{ kind: 'dashboard' }} what="your security dashboard" />
      <Text size="sm">
        <Anchor component={Link} to="/security/vulnerabilities">
          Your security dashboard’s vulnerabilities
        </Anchor>
        : filter them and export what you see.
      </Text>
    </Stack>
  );
}
