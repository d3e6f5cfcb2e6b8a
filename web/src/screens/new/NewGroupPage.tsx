import { Stack, Tabs } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { ImportGroupForm } from './ImportGroupForm.tsx';
import { NewNamespaceForm } from './NewNamespaceForm.tsx';

/**
 * /groups/new: a top-level group (administrators, and users the instance lets create groups; the
 * server decides), made empty or imported from an export (/groups/new?import=1).
 */
export default function NewGroupPage() {
  const [params, setParams] = useSearchParams();
  const importing = params.get('import') === '1';
  usePageTitle(importing ? 'Import group' : 'New group');
  return (
    <Stack gap="lg">
      <Tabs value={importing ? 'import' : 'create'} onChange={(v) => setParams(v === 'import' ? { import: '1' } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List aria-label="How to make the group" mb="lg">
          <Tabs.Tab value="create">Create group</Tabs.Tab>
          <Tabs.Tab value="import">Import group</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="create">
          <NewNamespaceForm what={{ kind: 'group' }} />
        </Tabs.Panel>
        <Tabs.Panel value="import">
          <ImportGroupForm />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
