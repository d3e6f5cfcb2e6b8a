import type { Db } from '../../db/index.ts';
import type { GroupRow, ProjectRow } from '../../db/schema.ts';
import { isAdmin, type Actor } from '../../auth/actor.ts';
import { canProject, type ProjectAction } from '../../policies/index.ts';
import { projectAccessLevel } from '../../policies/access.ts';
import { json } from '../../util/rows.ts';
import { isRepositoryPath } from '../../../../shared/src/container-registry.ts';
import { BAD_CREDENTIALS, type GitCaller } from '../access/git-access.ts';
import { findProject } from '../groups/projects.ts';
import { blockingRule, rulesMatching } from './protection-rules.ts';
import { REGISTRY_SERVICE, registryToken, type Access, type TokenServiceSettings } from './signing.ts';
import { recordRepository } from './repositories.ts';

export type { TokenServiceSettings } from './signing.ts';

/** A refusal in the registry's error vocabulary (answered `{"errors": [{code, message}]}`). */
export type Refusal = { code: 'UNAUTHORIZED' | 'DENIED' | 'UNAVAILABLE' | 'UNSUPPORTED'; message: string };
export type TokenOutcome = { token: string; access: Access[] } | Refusal;

/** What a credential may ask the registry for, whatever the project: its scopes (the platform's registry abilities). */
interface Abilities {
  pull: boolean;
  push: boolean;
  delete: boolean;
}

function abilitiesOf(caller: GitCaller): Abilities {
  if (caller.kind === 'anonymous') return { pull: true, push: false, delete: false };
  if (caller.kind === 'deploy_token') {
    const scopes = json<string[]>(caller.token.scopes, []);
    return { pull: scopes.includes('read_registry'), push: scopes.includes('write_registry'), delete: false };
  }
  const { actor } = caller;
  // A password grants what the user may do; a token what its scopes say (only `api` deletes).
  if (actor.via !== 'token') return { pull: true, push: true, delete: true };
  const has = (...scopes: string[]) => actor.scopes.some((s) => scopes.includes(s));
  return { pull: has('api', 'read_api', 'read_registry'), push: has('api', 'write_registry'), delete: has('api') };
}

/**
 * The project a repository path belongs to: the longest leading run of its components that is a
 * project's full path (whatever its case), as the platform's ContainerRegistry::Path.
 */
async function projectOfPath(db: Db, path: string): Promise<{ project: ProjectRow; group: GroupRow } | undefined> {
  const parts = path.split('/');
  for (let n = parts.length; n >= 2; n--) {
    const found = await findProject(db, parts.slice(0, n).join('/'));
    if (found) return found;
  }
  return undefined;
}

const ACTION_RULES: Record<string, { ability: keyof Abilities; rule: ProjectAction }> = {
  pull: { ability: 'pull', rule: 'read_container_image' },
  push: { ability: 'push', rule: 'create_container_image' },
  delete: { ability: 'delete', rule: 'destroy_container_image' },
  '*': { ability: 'delete', rule: 'destroy_container_image' },
};

interface Granted extends Access {
  project: ProjectRow;
  group: GroupRow;
}

/** What the caller may do of `actions` on the repository at `path`: only what their credential and role allow. */
async function grant(db: Db, caller: GitCaller, abilities: Abilities, path: string, actions: string[]): Promise<Granted | undefined> {
  if (!isRepositoryPath(path)) return undefined;
  const found = await projectOfPath(db, path);
  if (!found || found.project.container_registry_enabled === 0) return undefined;
  const { project, group } = found;
  let allowed: (action: string) => boolean;
  if (caller.kind === 'deploy_token') {
    // A group deploy token reaches the projects of its group's tree, by its scopes only.
    const owner = await db.selectFrom('groups').select('traversal').where('id', '=', caller.token.group_id).executeTakeFirst();
    const inTree = owner !== undefined && group.traversal.startsWith(owner.traversal);
    allowed = (action) => inTree && (action === 'pull' ? abilities.pull : action === 'push' ? abilities.push : false);
  } else {
    const actor: Actor = caller.kind === 'user' ? caller.actor : { user: null, via: 'anonymous', scopes: [] };
    const level = actor.user ? await projectAccessLevel(db, actor.user.id, project, group) : 0;
    const subject = { project, group, level };
    allowed = (action) => {
      const needs = ACTION_RULES[action];
      return needs !== undefined && abilities[needs.ability] && canProject(actor, needs.rule, subject);
    };
  }
  const granted = [...new Set(actions)].filter(allowed);
  return granted.length ? { type: 'repository', name: path, actions: granted, project, group } : undefined;
}

/**
 * The protection rules of each project a push or delete was granted on: the first rule that stops
 * the caller's role, as a refusal. Administrators are never stopped; a deploy token has no role,
 * so any rule on the path stops it (the platform lets deploy tokens through, which would make a
 * rule at Owner something any write_registry deploy token of the group may ignore).
 */
async function protectionRefusal(db: Db, caller: GitCaller, granted: Granted[]): Promise<Refusal | undefined> {
  if (caller.kind === 'user' && isAdmin(caller.actor)) return undefined;
  for (const g of granted) {
    const pushes = g.actions.includes('push') || g.actions.includes('*');
    const deletes = g.actions.includes('delete') || g.actions.includes('*');
    if (!pushes && !deletes) continue;
    const rules = await rulesMatching(db, g.project.id, g.name);
    if (!rules.length) continue;
    const role = caller.kind === 'user' && caller.actor.user ? await projectAccessLevel(db, caller.actor.user.id, g.project, g.group) : 0;
    if (pushes && blockingRule(rules, g.name, role, 'push')) return { code: 'DENIED', message: 'Pushing to protected repository path forbidden' };
    if (deletes && blockingRule(rules, g.name, role, 'delete')) return { code: 'DENIED', message: 'Deleting from protected repository path forbidden' };
  }
  return undefined;
}

/**
 * `GET /jwt/auth`, the registry's token service (the Docker token protocol): who the caller is
 * (`caller`, from HTTP Basic), which registry (`service`) and what they ask (`scopes`,
 * `repository:<path>:<actions>` or `registry:catalog:*`). Answers a token granting what the
 * caller may do of it (possibly nothing: the registry then refuses), or a refusal: bad
 * credentials, a credential with no registry scope, an unknown service, a protected path.
 */
export async function issueToken(
  db: Db,
  settings: TokenServiceSettings | undefined,
  request: { service: string | undefined; scopes: string[]; caller: GitCaller | typeof BAD_CREDENTIALS; now?: Date },
): Promise<TokenOutcome> {
  if (!settings) return { code: 'UNAVAILABLE', message: 'registry not enabled' };
  if (request.service !== REGISTRY_SERVICE) return { code: 'UNSUPPORTED', message: `unknown service: the registry's service is ${REGISTRY_SERVICE}` };
  const { caller } = request;
  if (caller === BAD_CREDENTIALS) {
    return {
      code: 'UNAUTHORIZED',
      message: 'HTTP Basic: Access denied. The password or token was not accepted: use a personal, group access or deploy token with the read_registry scope (and write_registry to push).',
    };
  }
  const abilities = abilitiesOf(caller);
  const anyAbility = abilities.pull || abilities.push || abilities.delete;
  if ((caller.kind !== 'anonymous' && !anyAbility) || (caller.kind === 'anonymous' && request.scopes.length === 0)) {
    return { code: 'DENIED', message: 'access forbidden' };
  }
  const granted: Granted[] = [];
  const access: Access[] = [];
  for (const scope of request.scopes) {
    const first = scope.indexOf(':');
    const last = scope.lastIndexOf(':');
    if (first < 0 || last === first) continue;
    const [type, name, actions] = [scope.slice(0, first), scope.slice(first + 1, last), scope.slice(last + 1).split(',')];
    if (type === 'registry') {
      // The catalog: administrators only, all or nothing.
      if (name === 'catalog' && actions.length === 1 && actions[0] === '*' && caller.kind === 'user' && isAdmin(caller.actor)) access.push({ type: 'registry', name, actions: ['*'] });
    } else if (type === 'repository') {
      const g = await grant(db, caller, abilities, name, actions);
      if (g) granted.push(g);
    }
  }
  const refusal = await protectionRefusal(db, caller, granted);
  if (refusal) return refusal;
  access.push(...granted.map(({ type, name, actions }) => ({ type, name, actions })));
  // A repository is the project's from its first push granted, as on the platform (the Container registry API lists these).
  for (const g of granted) {
    if (g.actions.includes('push')) await recordRepository(db, g.project.id, g.name.slice(g.project.path_with_namespace.length + 1));
  }
  const subject = caller.kind === 'user' ? (caller.actor.user?.username ?? '') : caller.kind === 'deploy_token' ? caller.token.username : '';
  return { token: registryToken(settings, subject, access, request.now), access };
}
