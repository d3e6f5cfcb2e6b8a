import type { Db } from '../../db/index.ts';
import type { GroupRow, ProjectRow, UserRow } from '../../db/schema.ts';
import { commitCreateBody } from '../../../../shared/src/commits.ts';
import { commitAsPush } from '../git/commit-create.ts';
import { writerRole } from '../git/protected-refs.ts';
import { pointHead } from '../git/default-branch.ts';
import { DEFAULT_BRANCH, ensureRepository, removeRepository } from '../git/repositories.ts';
import { getSettings } from '../instance/application-settings.ts';
import { deleteProject } from './projects.ts';

/** The README's commit is its creator's, who may create projects here: written as the project's Owner, past any protection of the first branch. */
const CREATOR = writerRole(false, 50);

/** A new project's first branch: the one asked for, else its group's default, the instance's, or main. */
export async function initialBranchOf(db: Db, namespace: GroupRow, asked: string | undefined): Promise<string> {
  return asked || namespace.default_branch || (await getSettings(db)).default_branch_name || DEFAULT_BRANCH;
}

/** What the platform's README of a new project starts with: its name, and its description where it has one. */
export const readmeOf = (project: Pick<ProjectRow, 'name' | 'description'>) => `# ${project.name}\n${project.description ? `\n${project.description}\n` : ''}`;

/**
 * POST /projects with initialize_with_readme: a first commit of README.md on the first branch,
 * made as any commit through the API is (checked against the push rule, then a push event and
 * its hooks). The repository's HEAD names the branch, so a clone checks it out. If the commit is
 * refused, the project is removed again and the refusal answered: no project is left half made.
 */
export async function initializeWithReadme(
  deps: { db: Db; repositoriesDir: string; baseUrl: string },
  project: ProjectRow,
  namespace: GroupRow,
  user: UserRow,
  branch: string,
): Promise<void> {
  const { db, repositoriesDir, baseUrl } = deps;
  try {
    const dir = await ensureRepository(db, repositoriesDir, project);
    await pointHead(dir, branch);
    const body = commitCreateBody.parse({ branch, commit_message: 'Initial commit', actions: [{ action: 'create', file_path: 'README.md', content: readmeOf(project) }] });
    await commitAsPush({ db, dir, defaultBranch: branch, baseUrl, project, group: namespace, user, role: CREATOR }, body);
  } catch (e) {
    await deleteProject(db, project, namespace);
    removeRepository(repositoriesDir, project);
    throw e;
  }
}
