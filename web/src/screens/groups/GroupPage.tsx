import { useParams } from 'react-router';
import type { GroupDetail } from '../../../../shared/src/groups.ts';
import { useGroup, useGroupRole } from '../../api/groups.ts';
import { useCurrentUser } from '../../api/session.ts';
import { GroupAvatar } from '../../components/GroupAvatar.tsx';
import { VisibilityBadge } from '../../components/VisibilityBadge.tsx';
import { callerRole, ResourcePage, type CallerRole } from '../../components/ResourcePage.tsx';
import { resourceStates, screensOf } from '../../components/SectionedPage.tsx';
import { QueryContent } from '../../components/states.tsx';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { groupHref, parseGroupSplat } from '../../paths.ts';
import { groupSections } from '../../sections.ts';
import { GroupContext } from './group-context.ts';

const sectionScreens = screensOf(groupSections);

/** /groups/<full path>[/-/<section>]: the group's header, its tabs and the chosen section. */
export default function GroupPage() {
  const { '*': splat = '' } = useParams();
  const { fullPath, section } = parseGroupSplat(splat);
  const user = useCurrentUser();
  const group = useGroup(fullPath);
  const abilities = useGroupRole(group.data, user);
  const current = groupSections.find((s) => s.slug === section);
  usePageTitle(group.data ? `${current && current.slug ? `${current.label} · ` : ''}${group.data.full_name}` : 'Group');

  return (
    <QueryContent query={group} {...resourceStates('group', fullPath)}>
      {(g) => <GroupFrame group={g} role={callerRole(abilities, user)} section={section} />}
    </QueryContent>
  );
}

function GroupFrame({ group: g, role, section }: { group: GroupDetail; role: CallerRole; section: string }) {
  const segments = g.full_path.split('/');
  const names = g.full_name.split(' / ');
  const trail = segments.map((_, i) => ({ label: names[i] ?? segments[i], href: groupHref(segments.slice(0, i + 1).join('/')) }));

  return (
    <GroupContext.Provider value={{ group: g, role }}>
      <ResourcePage
        scope={{ kind: 'group', name: g.full_name, overviewHref: groupHref(g.full_path), role }}
        trail={trail}
        avatar={<GroupAvatar id={g.id} name={g.name} url={g.avatar_url} size={56} />}
        title={g.name}
        badges={<VisibilityBadge visibility={g.visibility} />}
        subtitle={`${g.full_path} · ID ${g.id}`}
        sections={groupSections}
        screens={sectionScreens}
        section={section}
        hrefOf={(slug) => groupHref(g.full_path, slug)}
      />
    </GroupContext.Provider>
  );
}
