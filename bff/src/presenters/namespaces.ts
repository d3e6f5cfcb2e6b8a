import type { GroupRow } from '../db/schema.ts';
import type { NamespaceEntity } from '../../../shared/src/namespaces.ts';
import type { NamespaceCounts } from '../services/groups/namespaces.ts';
import { groupAvatarUrl, groupWebUrl } from './groups.ts';

/** A group as a namespace; `counts` only for a caller who administers it. */
export function presentNamespace(g: GroupRow, baseUrl: string, counts?: NamespaceCounts): NamespaceEntity {
  return {
    id: g.id,
    name: g.name,
    path: g.path,
    kind: 'group',
    full_path: g.full_path,
    parent_id: g.parent_id,
    avatar_url: groupAvatarUrl(baseUrl, g),
    web_url: groupWebUrl(baseUrl, g),
    ...(counts ? { members_count_with_descendants: counts.members, root_repository_size: null, projects_count: counts.projects } : {}),
  };
}
