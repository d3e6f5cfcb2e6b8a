import type { Ref } from 'react';
import { useMergedRef } from '@mantine/hooks';

/**
 * floating-ui's `useMergeRefs(refs)` for Mantine's ScrollArea, which imports nothing else from
 * floating-ui (vite.config.ts points it here): the same merge, by Mantine's own hook.
 */
export function useMergeRefs<T>(refs: (Ref<T> | undefined)[]) {
  return useMergedRef<T>(...refs);
}
