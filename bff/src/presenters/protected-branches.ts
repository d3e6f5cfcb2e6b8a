import { PROTECTION_LEVEL_NAMES, type ProtectedBranch, type ProtectedRefAccess } from '../../../shared/src/protected-branches.ts';
import type { ProtectedBranchView } from '../services/git/protected-branches.ts';
import { bool } from '../util/rows.ts';

/** An access level entry as the platform shows it (roles only: user and group are always null here). */
export function presentRefAccess(l: { id: number; access_level: number }): ProtectedRefAccess {
  return { id: l.id, access_level: l.access_level, access_level_description: PROTECTION_LEVEL_NAMES[l.access_level] ?? String(l.access_level), user_id: null, group_id: null };
}

export function presentProtectedBranch(v: ProtectedBranchView): ProtectedBranch {
  return {
    id: v.row.id,
    name: v.row.name,
    push_access_levels: v.push.map(presentRefAccess),
    merge_access_levels: v.merge.map(presentRefAccess),
    unprotect_access_levels: v.unprotect.map(presentRefAccess),
    allow_force_push: bool(v.row.allow_force_push),
    code_owner_approval_required: bool(v.row.code_owner_approval_required),
  };
}
