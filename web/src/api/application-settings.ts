import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { applicationSettingsUpdateBody } from '../../../shared/src/application-settings.ts';
import { data, v4, type MutationOptions } from './client.ts';

export type ApplicationSettingsUpdate = z.input<typeof applicationSettingsUpdateBody>;

export const applicationSettingsKeys = {
  all: ['application-settings'] as const,
};

/** The instance's settings (GET /application/settings, administrators). */
export function useApplicationSettings() {
  return useQuery({
    queryKey: applicationSettingsKeys.all,
    queryFn: ({ signal }) => data(v4.GET('/application/settings', { signal })),
  });
}

export function useUpdateApplicationSettings(options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (body: ApplicationSettingsUpdate) => data(v4.PUT('/application/settings', { body })),
    onSuccess: (saved) => qc.setQueryData(applicationSettingsKeys.all, saved),
    onSettled: () => qc.invalidateQueries({ queryKey: applicationSettingsKeys.all }),
  });
}
