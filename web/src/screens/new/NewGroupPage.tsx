import { Stack } from '@mantine/core';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { NewNamespaceForm } from './NewNamespaceForm.tsx';

/** /groups/new: a top-level group (administrators, and users the instance lets create groups; the server decides). */
export default function NewGroupPage() {
  usePageTitle('New group');
  return (
    <Stack gap="lg">
      <NewNamespaceForm what={{ kind: 'group' }} />
    </Stack>
  );
}
