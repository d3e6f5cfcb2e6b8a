import { createContext, useContext } from 'react';
import type { CallerRole } from '../../components/ResourcePage.tsx';
import type { GroupDetail } from '../../../../shared/src/groups.ts';

/** The group a section screen works on, and the signed-in user's role in it (undefined while loading). */
export interface GroupContextValue {
  group: GroupDetail;
  role: CallerRole;
}

export const GroupContext = createContext<GroupContextValue | null>(null);

export function useGroupContext(): GroupContextValue {
  const value = useContext(GroupContext);
  if (!value) throw new Error('useGroupContext outside a group page');
  return value;
}
