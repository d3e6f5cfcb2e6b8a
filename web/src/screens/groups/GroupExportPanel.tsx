import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import type { ConsoleGroupExport } from '../../../../shared/src/console-group-transfer.ts';
import type { GroupDetail } from '../../../../shared/src/groups.ts';
import { groupExportDownloadHref, useGroupExport, useStartGroupExport } from '../../api/group-transfer.ts';
import { FormSection } from '../../components/FormSection.tsx';
import { IconAlert } from '../../components/icons.tsx';
import { notifySuccess } from '../../components/notify.ts';
import { QueryContent } from '../../components/states.tsx';
import { formatDate, formatSize, fromNow, fullDateTimeToMinute } from '../../format.ts';

const busy = (e: ConsoleGroupExport | null) => e?.status === 'scheduled' || e?.status === 'started';

/** "Made 5 minutes ago (Nov 29, 2026 10:04) · 12 kB · kept until Dec 6, 2026". */
function madeLine(e: ConsoleGroupExport) {
  return (
    <>
      Made {fromNow(e.finished_at!)} (<time dateTime={e.finished_at!}>{fullDateTimeToMinute(e.finished_at!)}</time>) · {formatSize(e.file_size)} · kept until {formatDate(e.expires_at)}
    </>
  );
}

/**
 * The group's export in the platform's archive, on its settings: start one, watch it being
 * made (polled), then download it and see when it was made. The next export replaces it.
 */
export function GroupExportPanel({ group }: { group: GroupDetail }) {
  const exportState = useGroupExport(group.id);
  const start = useStartGroupExport(group.id, { meta: { errorTitle: 'The export was not started', forbidden: 'You need the Owner role to export this group.' } });
  const onStart = () => start.mutate(undefined, { onSuccess: () => notifySuccess('Export started', `${group.full_name} is being exported. Its download appears here when it is ready.`) });
  return (
    <FormSection
      id="export"
      title="Export group"
      layout="aside"
      order={2}
      description="Download this group and its subgroups (labels, milestones, epics, boards, badges and members) as an archive in the platform's format, to import here or on the platform. Projects are not included."
    >
      <QueryContent query={exportState} what="the group's export" loadingLabel="Checking the group's export…">
        {({ export: e }) => (
          <Stack gap="sm" align="flex-start">
            <div aria-live="polite" role="status">
              {busy(e) ? (
                <Group gap="xs" wrap="nowrap">
                  <Loader size="xs" />
                  <Text size="sm">
                    {e!.status === 'scheduled' ? 'The export is queued.' : 'The export is being made.'} This page updates when it is ready.
                  </Text>
                </Group>
              ) : e?.downloadable ? (
                <Text size="sm">The export is ready.</Text>
              ) : e?.status !== 'failed' ? (
                <Text size="sm" c="dimmed">
                  {e ? 'The last export has expired.' : 'This group has not been exported yet.'} Start an export to download it.
                </Text>
              ) : null}
            </div>
            {e?.status === 'failed' && (
              <Alert color="red" variant="light" icon={<IconAlert />} title="The export failed" role="alert" w="100%">
                {e.error ?? 'The server could not write the archive.'} Try again; if it keeps failing, your administrator will find the cause in the server's log.
              </Alert>
            )}
            {e?.downloadable && (
              <Text size="sm" c="dimmed">
                {busy(e) || e.status === 'failed' ? 'The previous archive still downloads: ' : ''}
                {madeLine(e)}
              </Text>
            )}
            <Group gap="xs">
              {e?.downloadable && (
                <Button component="a" href={groupExportDownloadHref(group.id)} download>
                  Download export
                </Button>
              )}
              <Button variant={e?.downloadable ? 'default' : 'filled'} onClick={onStart} loading={start.isPending} disabled={busy(e)}>
                {busy(e) ? 'Export in progress' : e ? 'Export again' : 'Export group'}
              </Button>
            </Group>
            {e && (
              <Text size="xs" c="dimmed">
                A new export replaces the one before once it is ready. Exports are deleted after 7 days.
              </Text>
            )}
          </Stack>
        )}
      </QueryContent>
    </FormSection>
  );
}
