import { useGroupContext } from '../groups/group-context.ts';
import { MembersSection } from './MembersSection.tsx';

/** /groups/<full path>/-/members */
export default function GroupMembersPage() {
  const { group, role } = useGroupContext();
  return <MembersSection key={group.id} scope="groups" id={group.id} name={group.full_name} canAdmin={role.can('admin_members')} canInvite={role.can('admin_invitations')} />;
}
