import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { groupUpdateBody, groupCreateBody } from '../../../shared/src/groups.ts';
import type { Request, Response } from 'express';
import { RepositoryMissingError } from '../services/git/repositories.ts';
import { fromZodError, renderErrors, toApiError } from './errors.ts';

const errorOf = (schema: { safeParse: (v: unknown) => { success: boolean; error?: unknown } }, input: unknown) => {
  const r = schema.safeParse(input);
  assert.equal(r.success, false);
  return toApiError(fromZodError(r.error as never));
};

describe('fromZodError', () => {
  it('renders a missing attribute as a message string', () => {
    const e = errorOf(groupCreateBody, { path: 'x' });
    assert.equal(e.status, 400);
    assert.deepEqual(e.body, { message: 'name is missing' });
  });
  it('maps each invalid field to its messages', () => {
    const e = errorOf(groupUpdateBody, { visibility: 'nope', unique_project_download_limit: 10_001, name: 'x'.repeat(300) });
    assert.deepEqual(e.body, {
      message: {
        visibility: ['does not have a valid value'],
        unique_project_download_limit: ['must be less than or equal to 10000'],
        name: ['is too long (maximum is 255 characters)'],
      },
    });
  });
  it('nests the messages of nested entities', () => {
    const e = errorOf(groupUpdateBody, { default_branch_protection_defaults: { allowed_to_push: [{ access_level: 1 }] } });
    assert.deepEqual(e.body, { message: { default_branch_protection_defaults: { allowed_to_push: { '0': { access_level: ['is invalid'] } } } } });
  });
  it('accepts the string spellings of query and form values', () => {
    const r = groupUpdateBody.safeParse({ lfs_enabled: 'false', two_factor_grace_period: '24', unique_project_download_limit_alertlist: '1,2' });
    assert.ok(r.success);
    assert.deepEqual(r.data, { lfs_enabled: false, two_factor_grace_period: 24, unique_project_download_limit_alertlist: [1, 2] });
  });
});

describe('renderErrors', () => {
  it('answers a server fault 500 with the platform body, and logs its reason and details', () => {
    const logged: unknown[][] = [];
    const req = { log: { error: (...args: unknown[]) => logged.push(args) } } as unknown as Request;
    let status = 0;
    let body: unknown;
    const res = { status: (s: number) => ((status = s), res), json: (b: unknown) => (body = b) } as unknown as Response;
    const fault = new RepositoryMissingError(42, '/srv/repositories/42.git');
    renderErrors(fault, req, res, () => {});
    assert.equal(status, 500);
    assert.deepEqual(body, { message: '500 Internal Server Error' });
    assert.deepEqual(logged, [[{ project_id: 42, path: '/srv/repositories/42.git' }, fault.message]]);
    assert.match(fault.message, /repository missing: project 42/);
  });
});
