import { listen } from '../notifier.ts';
import { abortAutoMerge, onSourcesPushed } from './auto-merge.ts';
import { onBranchesPushed, onPipelineMoved } from './trains/events.ts';

/** What merging hears: pushes and pipelines move trains and auto-merges, a close aborts an auto-merge. */
export function listenForMerging(): void {
  listen('pushWritten', async ({ trx, pushed, refs }) => {
    await onBranchesPushed(trx, pushed.project.id, refs);
    // A deleted branch is a source update too (its head is the zero id, which no auto-merge was set for).
    const heads = new Map(refs.filter((r) => r.ref.startsWith('refs/heads/')).map((r) => [r.ref.slice('refs/heads/'.length), r.after]));
    await onSourcesPushed(trx, pushed.project, heads, pushed.user);
  });
  listen('pipelineMoved', ({ trx, pipeline }) => onPipelineMoved(trx, pipeline));
  listen('mergeRequestClosed', ({ trx, project, mergeRequest }) => abortAutoMerge(trx, project, mergeRequest, 'the merge request was closed'));
}
