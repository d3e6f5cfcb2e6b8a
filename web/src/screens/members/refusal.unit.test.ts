import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../api/client.ts';
import { memberRefusal } from './refusal.ts';

describe('memberRefusal', () => {
  it('explains the platform’s reasons in plain words', () => {
    assert.match(memberRefusal(new ApiError(403, 'A group must have at least one Owner')), /^A group must always have an Owner\./);
    assert.match(memberRefusal(new ApiError(403, 'access_level is above your own')), /higher than your own/);
    assert.equal(memberRefusal(new ApiError(409, 'Member already exists')), 'This user is already a member.');
  });
  it('reads the reason in the body too', () => {
    assert.match(memberRefusal(new ApiError(400, '400 Bad Request', null, { message: { access_level: ['is the last Owner'] } })), /always have an Owner/);
  });
  it('words an inherited role from the server’s message', () => {
    assert.equal(
      memberRefusal(new ApiError(400, 'access_level should be greater than or equal to Developer inherited membership from group acme')),
      'The role should be greater than or equal to Developer inherited membership from group acme: a member keeps at least the role they inherit from a parent group.',
    );
  });
  it('says a 403 is the role, keeps any other message, and has a word for what is not an API error', () => {
    assert.equal(memberRefusal(new ApiError(403, 'Forbidden')), 'Your role does not allow this change.');
    assert.equal(memberRefusal(new ApiError(422, 'Something else')), 'Something else');
    assert.equal(memberRefusal(new Error('network')), 'The change could not be made.');
  });
});
