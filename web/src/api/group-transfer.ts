import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConsoleGroupExportState, ConsoleGroupPlaceholders } from '../../../shared/src/console-group-transfer.ts';
import type { GroupDetail } from '../../../shared/src/groups.ts';
import { consoleApi, data, v4, type MutationOptions } from './client.ts';
import { groupsKeys } from './groups.ts';

/**
 * A group's transfers: its export in the platform's archive (started on /api/v4, its state
 * read from the console's own route), the import of a new group from an archive, and the
 * reassignment of the placeholder users an import made.
 */

export const transferKeys = {
  all: ['group-transfer'] as const,
  group: (groupId: number) => [...transferKeys.all, groupId] as const,
  export: (groupId: number) => [...transferKeys.group(groupId), 'export'] as const,
  placeholders: (groupId: number) => [...transferKeys.group(groupId), 'placeholders'] as const,
};

const groupPath = (id: number | string) => ({ params: { path: { id: String(id) } } });

/** Where the archive downloads (with the session cookie): 404 until an export is written. */
export const groupExportDownloadHref = (groupId: number) => `/api/v4/groups/${groupId}/export/download`;
/** Where the CSV of the pending placeholders downloads. */
export const placeholderCsvHref = (groupId: number) => `/api/v4/groups/${groupId}/placeholder_reassignments`;

const exportBusy = (t: ConsoleGroupExportState | undefined) => t?.export?.status === 'scheduled' || t?.export?.status === 'started';
const reassigning = (t: ConsoleGroupPlaceholders | undefined) => t?.placeholders.some((p) => p.status === 'reassignment_in_progress') ?? false;

/** The group's export (Owners: export_group); polled every second while it is queued or being made. */
export function useGroupExport(groupId: number) {
  return useQuery({
    queryKey: transferKeys.export(groupId),
    queryFn: ({ signal }) => data(consoleApi.GET('/groups/{id}/transfer', { ...groupPath(groupId), signal })),
    refetchInterval: (q) => (exportBusy(q.state.data) ? 1000 : false),
  });
}

/** The group's placeholder users (Owners: admin_placeholders); polled every second while a reassignment runs. */
export function useGroupPlaceholders(groupId: number) {
  return useQuery({
    queryKey: transferKeys.placeholders(groupId),
    queryFn: ({ signal }) => data(consoleApi.GET('/groups/{id}/placeholders', { ...groupPath(groupId), signal })),
    refetchInterval: (q) => (reassigning(q.state.data) ? 1000 : false),
  });
}

/** POST /groups/:id/export (202): the state is then read (and polled) from useGroupExport. */
export function useStartGroupExport(groupId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: () => data(v4.POST('/groups/{id}/export', groupPath(groupId))),
    onSettled: () => qc.invalidateQueries({ queryKey: transferKeys.export(groupId) }),
  });
}

export interface GroupImport {
  file: File;
  name: string;
  path: string;
  parent: { id: number; full_path: string } | null;
}

/** POST /groups/import (multipart); resolves to the new group's full path, by which its import is followed. */
export function useImportGroup(options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: async ({ file, name, path, parent }: GroupImport) => {
      const form = new FormData();
      form.append('name', name);
      form.append('path', path);
      if (parent) form.append('parent_id', String(parent.id));
      form.append('file', file, file.name);
      // Multipart: the typed body names the fields, the serializer sends the form instead.
      await data(v4.POST('/groups/import', { body: { name, path, parent_id: parent?.id }, bodySerializer: () => form }));
      return parent ? `${parent.full_path}/${path}` : path;
    },
    onSettled: () => qc.invalidateQueries({ queryKey: groupsKeys.all }),
  });
}

const importing = (g: GroupDetail | undefined) => g?.import_status === 'scheduled' || g?.import_status === 'started';

/** The imported group by its full path, polled every second until its import finished or failed. */
export function useImportedGroup(fullPath: string | null) {
  return useQuery({
    queryKey: [...groupsKeys.detail(fullPath ?? ''), 'import'] as const,
    enabled: fullPath !== null,
    queryFn: ({ signal }) => data(v4.GET('/groups/{id}', { ...groupPath(fullPath!), signal })),
    refetchInterval: (q) => (q.state.error || !importing(q.state.data) ? false : 1000),
  });
}

/** POST /groups/:id/placeholder_reassignments with the filled-in CSV: resolves to the server's message. */
export function useUploadReassignments(groupId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return data(v4.POST('/groups/{id}/placeholder_reassignments', { ...groupPath(groupId), body: {}, bodySerializer: () => form }));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: transferKeys.placeholders(groupId) }),
  });
}
