import { listen } from '../notifier.ts';
import { closeIssuesFromPush } from './issue-closing.ts';

/** What planning hears: a recorded push closes the issues its default-branch commits name. */
export function listenForPlanning(): void {
  listen('pushRecorded', ({ pushed, refs }) => closeIssuesFromPush(pushed, refs));
}
