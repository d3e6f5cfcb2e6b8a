import { Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { useCurrentUser } from '../../api/session.ts';
import { screensOf, SectionScreen, SectionTabs } from '../../components/SectionedPage.tsx';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { adminHref } from '../../paths.ts';
import { adminSections } from '../../sections.ts';
import { AdminForbidden } from './admin-states.tsx';

const sectionScreens = screensOf(adminSections);

/** /admin[/<section>[/…]]: the administrators' area, its tabs and the chosen section; everyone else gets the forbidden state. */
export default function AdminPage() {
  const user = useCurrentUser();
  const { '*': splat = '' } = useParams();
  const section = splat.split('/')[0] ?? '';
  const current = adminSections.find((s) => s.slug === section);
  usePageTitle(`${current?.slug ? `${current.label} · ` : ''}Admin area`);

  if (!user.is_admin) return <AdminForbidden />;
  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          Admin area
        </Title>
        <Text c="dimmed" size="sm">
          The whole instance: its users, groups and projects, its settings and feature flags, and whether background work keeps up.
        </Text>
      </div>
      <SectionTabs sections={adminSections} section={section} can={() => true} pending={false} kind="admin area" hrefOf={(slug) => adminHref(slug)}>
        <SectionScreen screens={sectionScreens} section={section} kind="admin area" />
      </SectionTabs>
    </Stack>
  );
}
