import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { transferRefusal } from './transfer-model.ts';

describe('transferRefusal', () => {
  it('unwraps the platform’s sentences', () => {
    assert.equal(
      transferRefusal({ status: 400, message: 'Failed to transfer project {:new_namespace=>["Project with same name or path in target namespace already exists"]}' }),
      'Project with same name or path in target namespace already exists',
    );
    assert.equal(transferRefusal({ status: 400, message: "Transfer failed: You don't have enough permissions." }), "You don't have enough permissions.");
  });
  it('words a status without a sentence', () => {
    assert.match(transferRefusal({ status: 404, message: '404 Namespace Not Found' }), /no longer exists/);
  });
});
