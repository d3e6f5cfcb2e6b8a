/**
 * How the signed-in user clones a project over HTTP: the exact `git clone` command and what git
 * will ask. A token is never written into the command (it would land in shell history and in
 * the clone's config); the user name is, so git asks only for the password.
 */
export interface CloneAdvice {
  command: string;
  /** Sentences under the command: who may clone, what to type when git asks, who may push where. */
  notes: string[];
}

export function cloneAdvice(
  project: { http_url_to_repo: string; visibility: string; default_branch: string | null },
  username: string,
  may: { push: boolean; pushDefault: boolean },
): CloneAdvice {
  const notes: string[] = [];
  const defaultBranch = project.default_branch ?? 'main';
  let command: string;
  if (project.visibility === 'public') {
    command = `git clone ${project.http_url_to_repo}`;
    notes.push('Anyone can clone this public project: git asks for nothing.');
    if (may.push) notes.push(`To push, git asks for a user name and password: type ${username} and a personal access token with the write_repository scope.`);
  } else {
    const url = new URL(project.http_url_to_repo);
    url.username = encodeURIComponent(username);
    command = `git clone ${url.toString()}`;
    notes.push(
      `git asks for your password: paste a personal access token with the read_repository scope${may.push ? ' (write_repository to push as well)' : ''}. Your console password works too, unless your organisation requires tokens.`,
    );
  }
  if (may.pushDefault) notes.push(`You can push to every branch, ${defaultBranch} included (no force-push or deletion of ${defaultBranch}).`);
  else if (may.push) notes.push(`You can push to every branch except ${defaultBranch}, which only Maintainers may push to.`);
  else notes.push('You can clone and fetch, not push: pushing needs the Developer role.');
  return { command, notes };
}
