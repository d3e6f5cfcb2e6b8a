import { useState } from 'react';
import { Alert, Button, Checkbox, Code, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { MergeRequest } from '../../../../shared/src/merge-requests.ts';
import type { ApiError } from '../../api/client.ts';
import { useAddMergeRequestToTrain, useCancelAutoMerge, useMergeMergeRequest, useMoveMergeRequest } from '../../api/merge-requests.ts';
import { useMergeSettings } from '../../api/merge-trains.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { showInDialog } from '../../components/dialog-errors.ts';
import { IconAlert, IconCheck, IconMinus } from '../../components/icons.tsx';
import { notifySuccess } from '../../components/notify.ts';
import { fromNow } from '../../format.ts';
import { useProjectContext } from '../projects/project-context.ts';
import { mergeabilityText, mergeOffer, refusalText, type MergeOffer } from './mr-model.ts';

/**
 * The merge panel of the Overview: where the merge request stands (merged, closed, ready or why
 * not) and the actions the user may take: merge, set to merge when the pipeline passes, add to
 * the merge train, take an automatic merge back, close or reopen. A refusal is told here, in the
 * panel (or in the merge dialog), in plain words.
 */
export function MergePanel({ mr }: { mr: MergeRequest }) {
  const { project, role } = useProjectContext();
  const settings = useMergeSettings(project.id);
  const [refusal, setRefusal] = useState<{ title: string; text: string } | null>(null);
  const [merging, setMerging] = useState<'now' | 'auto' | null>(null);
  // The panel tells its refusals itself (no toast): the hooks' meta says so, each call's onError words it.
  const refuse = (title: string) => ({ onError: (e: unknown) => setRefusal({ title, text: refusalText(e, mr.target_branch) }) });
  const pageMeta = { meta: { showsError: () => true } };
  const train = useAddMergeRequestToTrain(project.id, mr.iid, pageMeta);
  const cancel = useCancelAutoMerge(project.id, mr.iid, pageMeta);
  const move = useMoveMergeRequest(project.id, mr.iid, pageMeta);
  // Whether the project merges through trains is read fresh (the merge trains tab turns it on and off); until then nothing is offered.
  const offer: MergeOffer = settings.data ? mergeOffer(mr, { trainsEnabled: settings.data.merge_trains_enabled, pipelineMustSucceed: project.only_allow_merge_if_pipeline_succeeds }) : { kind: 'none' };
  const canEdit = role.can('update_merge_request');
  const status = mergeabilityText(mr.detailed_merge_status);
  const busy = train.isPending || cancel.isPending || move.isPending;

  const act = (start: () => void) => {
    setRefusal(null);
    start();
  };

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="mr-merge">
      <Stack gap="sm">
        <Title order={3} size="h5" id="mr-merge">
          Merge
        </Title>
        {mr.state === 'merged' ? (
          <Line ok>
            Merged{mr.merge_user ? ` by ${mr.merge_user.name}` : ''} {mr.merged_at ? fromNow(mr.merged_at) : ''} into <Code>{mr.target_branch}</Code>
            {mr.merge_commit_sha ? (
              <>
                {' '}
                as <Code>{mr.merge_commit_sha.slice(0, 8)}</Code>
              </>
            ) : null}
            .
          </Line>
        ) : mr.state === 'closed' ? (
          <Line>Closed{mr.closed_by ? ` by ${mr.closed_by.name}` : ''} {mr.closed_at ? fromNow(mr.closed_at) : ''}, without merging.</Line>
        ) : offer.kind === 'waiting' ? (
          <Line ok>
            {offer.onTrain
              ? `On the merge train into ${mr.target_branch}: it merges when its train pipeline passes.`
              : `Set to merge automatically when the pipeline succeeds.`}
          </Line>
        ) : (
          <Line ok={status.ready}>{status.text}</Line>
        )}
        {mr.state === 'opened' && mr.head_pipeline && <PipelineLine status={mr.head_pipeline.status} id={mr.head_pipeline.id} />}
        {mr.state === 'opened' && !mr.user.can_merge && <Text size="sm" c="dimmed">Developers, Maintainers and Owners of the project merge; you may read it.</Text>}
        {offer.kind === 'train' && <Text size="sm" c="dimmed">This project merges through merge trains: the merge request joins the train into {mr.target_branch} and merges once its train pipeline passes.</Text>}
        {refusal && (
          <Alert color="red" variant="light" icon={<IconAlert />} title={refusal.title} role="alert" withCloseButton onClose={() => setRefusal(null)} closeButtonLabel="Dismiss">
            {refusal.text}
          </Alert>
        )}
        <Group gap="xs">
          {offer.kind === 'merge' && offer.autoMerge && <Button onClick={() => setMerging('auto')}>Set to auto-merge</Button>}
          {offer.kind === 'merge' && offer.mergeNow && (
            <Button variant={offer.autoMerge ? 'default' : 'filled'} color={offer.autoMerge ? undefined : 'teal'} onClick={() => setMerging('now')}>
              {offer.autoMerge ? 'Merge now' : 'Merge'}
            </Button>
          )}
          {offer.kind === 'train' && (
            <Button
              loading={train.isPending}
              disabled={busy}
              onClick={() => act(() => train.mutate(undefined, { ...refuse('The merge request was not added to the merge train'), onSuccess: () => notifySuccess('Added to the merge train', `!${mr.iid} merges when its train pipeline passes.`) }))}
            >
              Add to merge train
            </Button>
          )}
          {offer.kind === 'waiting' && (
            <Button
              variant="default"
              loading={cancel.isPending}
              disabled={busy}
              onClick={() => act(() => cancel.mutate(undefined, { ...refuse(offer.onTrain ? 'The merge request is still on the train' : 'The automatic merge was not cancelled'), onSuccess: () => notifySuccess(offer.onTrain ? 'Removed from the merge train' : 'Automatic merge cancelled', `!${mr.iid} waits to be merged by hand.`) }))}
            >
              {offer.onTrain ? 'Remove from merge train' : 'Cancel auto-merge'}
            </Button>
          )}
          {canEdit && mr.state === 'opened' && (
            <Button variant="default" color="red" loading={move.isPending && move.variables === 'close'} disabled={busy} onClick={() => act(() => move.mutate('close', { ...refuse('The merge request was not closed'), onSuccess: () => notifySuccess('Merge request closed', `!${mr.iid} is closed; it can be reopened.`) }))}>
              Close merge request
            </Button>
          )}
          {canEdit && mr.state === 'closed' && (
            <Button variant="default" loading={move.isPending && move.variables === 'reopen'} disabled={busy} onClick={() => act(() => move.mutate('reopen', { ...refuse('The merge request was not reopened'), onSuccess: () => notifySuccess('Merge request reopened', `!${mr.iid} is open again.`) }))}>
              Reopen merge request
            </Button>
          )}
        </Group>
      </Stack>
      <MergeDialog mr={mr} mode={merging} onClose={() => setMerging(null)} />
    </Paper>
  );
}

/** What the head pipeline means for the merge: passed, still running, or failed (merging then takes untested changes). */
function PipelineLine({ status, id }: { status: string; id: number }) {
  if (status === 'success') return <Line ok>Pipeline #{id} passed.</Line>;
  if (['failed', 'canceled'].includes(status)) {
    return (
      <Line>
        <Text span c="red.9" fw={600} inherit>
          Pipeline #{id} {status === 'failed' ? 'failed' : 'was canceled'}.
        </Text>{' '}
        Merging now takes changes the CI did not pass.
      </Line>
    );
  }
  if (['skipped', 'manual'].includes(status)) return <Line>Pipeline #{id} was {status}.</Line>;
  return <Line>Pipeline #{id} is still running.</Line>;
}

/** A line of the panel with its sign: a check when all is well, a dash otherwise (never colour alone). */
function Line({ ok = false, children }: { ok?: boolean; children: React.ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <ThemeIcon size={22} radius="xl" variant="light" color={ok ? 'teal' : 'gray'} aria-hidden="true">
        {ok ? <IconCheck size={14} /> : <IconMinus size={14} />}
      </ThemeIcon>
      <Text size="sm">{children}</Text>
    </Group>
  );
}

/** The merge, now or once the pipeline passes: the source branch's fate and squashing, then the merge itself. */
function MergeDialog({ mr, mode, onClose }: { mr: MergeRequest; mode: 'now' | 'auto' | null; onClose: () => void }) {
  const { project } = useProjectContext();
  const [removeSource, setRemoveSource] = useState(mr.force_remove_source_branch || mr.should_remove_source_branch === true);
  const [squash, setSquash] = useState(mr.squash);
  const merge = useMergeMergeRequest(project.id, mr.iid, { meta: { showsError: () => true } });
  const auto = mode === 'auto';
  const title = auto ? `Merge !${mr.iid} when the pipeline succeeds?` : `Merge !${mr.iid} into ${mr.target_branch}?`;
  const submit = () =>
    merge.mutate(
      { sha: mr.sha ?? undefined, should_remove_source_branch: removeSource, squash, ...(auto && { auto_merge: true }) },
      {
        onError: (e: ApiError | Error) => showInDialog({ title: auto ? 'Auto-merge was not set' : 'The merge request was not merged', message: refusalText(e, mr.target_branch) }),
        onSuccess: (after) => {
          notifySuccess(after.state === 'merged' ? 'Merged' : 'Set to auto-merge', after.state === 'merged' ? `!${mr.iid} is merged into ${mr.target_branch}.` : `!${mr.iid} merges when its pipeline succeeds.`);
          onClose();
        },
      },
    );
  return (
    <Dialog opened={mode !== null} onClose={onClose} busy={merge.isPending} title={title} centered>
      <Stack gap="md">
        <Text size="sm">
          {auto
            ? `The commits of ${mr.source_branch} merge into ${mr.target_branch} as soon as the running pipeline passes; if it fails, nothing is merged.`
            : `The commits of ${mr.source_branch} are merged into ${mr.target_branch} now.`}
        </Text>
        <Checkbox label={`Delete the source branch ${mr.source_branch} after the merge`} checked={removeSource} onChange={(e) => setRemoveSource(e.currentTarget.checked)} />
        <Checkbox label="Squash the commits into one" checked={squash} onChange={(e) => setSquash(e.currentTarget.checked)} />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose} disabled={merge.isPending}>
            Cancel
          </Button>
          <Button color="teal" onClick={submit} loading={merge.isPending} data-autofocus>
            {auto ? 'Set to auto-merge' : 'Merge'}
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
