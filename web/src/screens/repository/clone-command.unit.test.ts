import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cloneAdvice } from './clone-command.ts';

const project = (visibility: string, default_branch: string | null = 'main') => ({ http_url_to_repo: 'https://git.example.com/acme/web.git', visibility, default_branch });
const none = { push: false, pushDefault: false };

describe('cloneAdvice', () => {
  it('clones a public project without a user name', () => {
    const a = cloneAdvice(project('public'), 'ana', none);
    assert.equal(a.command, 'git clone https://git.example.com/acme/web.git');
    assert.match(a.notes[0], /git asks for nothing/);
    assert.match(a.notes.at(-1)!, /not push: pushing needs the Developer role/);
  });
  it('puts the user name, never a token, in a private project’s URL', () => {
    const a = cloneAdvice(project('private'), 'ana.lopez@acme', none);
    assert.equal(a.command, 'git clone https://ana.lopez%40acme@git.example.com/acme/web.git');
    assert.match(a.notes[0], /read_repository scope\. /);
    assert.doesNotMatch(a.command, /glpat|token/);
  });
  it('says which branches the user may push to', () => {
    const developer = cloneAdvice(project('internal', 'trunk'), 'ana', { push: true, pushDefault: false });
    assert.match(developer.notes[0], /write_repository to push as well/);
    assert.equal(developer.notes.at(-1), 'You can push to every branch except trunk, which only Maintainers may push to.');
    const maintainer = cloneAdvice(project('internal', null), 'ana', { push: true, pushDefault: true });
    assert.equal(maintainer.notes.at(-1), 'You can push to every branch, main included (no force-push or deletion of main).');
  });
  it('tells a public project’s pushers what to type', () => {
    const a = cloneAdvice(project('public'), 'ana', { push: true, pushDefault: false });
    assert.match(a.notes[1], /type ana and a personal access token with the write_repository scope/);
  });
});
