import type { ProtectedTag } from '../../../shared/src/protected-tags.ts';
import type { ProtectedTagView } from '../services/git/protected-tags.ts';
import { presentRefAccess } from './protected-branches.ts';

export function presentProtectedTag(v: ProtectedTagView): ProtectedTag {
  return { id: v.row.id, name: v.row.name, create_access_levels: v.create.map(presentRefAccess) };
}
