import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { explainDeliveryError, failureText, flagOfTrigger, hasHttpAnswer, hookTitle, prettyBody, statusCategory, statusText, triggerLabel } from './hook-format.ts';

describe('hookTitle', () => {
  it('is the name, or the URL for a hook without one', () => {
    assert.equal(hookTitle({ name: 'CI', url: 'https://ci.example.com' }), 'CI');
    assert.equal(hookTitle({ name: '  ', url: 'https://ci.example.com' }), 'https://ci.example.com');
  });
});

describe('triggers', () => {
  it('are named as their events, an unknown one as sent', () => {
    assert.equal(triggerLabel('push_hooks'), 'Push events');
    assert.equal(flagOfTrigger('merge_request_hooks'), 'merge_requests_events');
    assert.equal(triggerLabel('future_hooks'), 'future_hooks');
  });
});

describe('statusCategory', () => {
  it('sorts answers as the API’s status filter does', () => {
    assert.equal(statusCategory('200'), 'successful');
    assert.equal(statusCategory('299'), 'successful');
    assert.equal(statusCategory('404'), 'client_failure');
    assert.equal(statusCategory('503'), 'server_failure');
    assert.equal(statusCategory('302'), 'other');
  });
  it('counts a delivery without an HTTP answer with the server failures', () => {
    assert.equal(statusCategory('internal error'), 'server_failure');
    assert.equal(statusText('internal error'), 'Error');
    assert.equal(statusText('201'), '201');
    assert.equal(hasHttpAnswer('201'), true);
    assert.equal(hasHttpAnswer('internal error'), false);
  });
});

describe('explainDeliveryError', () => {
  it('reads the outbound client’s errors for people', () => {
    assert.deepEqual(explainDeliveryError('Hook execution failed: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9'), {
      short: 'connection refused',
      long: 'The receiver could not be reached (connection refused).',
    });
    assert.equal(explainDeliveryError('Request timed out after 10 s').long, 'The receiver did not answer within 10 s.');
    assert.equal(explainDeliveryError('ENOTFOUND: getaddrinfo ENOTFOUND hooks.example.com').long, 'The host name hooks.example.com could not be resolved.');
    assert.equal(explainDeliveryError('getaddrinfo EAI_AGAIN hooks.example.com.').long, 'The host name hooks.example.com could not be resolved.');
    assert.equal(explainDeliveryError('self signed certificate').short, 'certificate not trusted');
    assert.equal(explainDeliveryError('Requests to the local network are not allowed').short, 'blocked: local address');
  });
  it('shows an error it does not know as a sentence, and says when there is none', () => {
    assert.deepEqual(explainDeliveryError('Resend failed: something odd'), { short: 'no answer', long: 'Something odd.' });
    assert.equal(explainDeliveryError('Broken pipe!').long, 'Broken pipe!');
    assert.equal(explainDeliveryError(null).long, 'The request failed without an HTTP answer.');
  });
  it('failureText gives the HTTP status, or why there was none', () => {
    assert.equal(failureText({ response_status: '500', internal_error_message: null }), 'HTTP 500');
    assert.equal(failureText({ response_status: 'internal error', internal_error_message: 'ETIMEDOUT' }), 'timed out');
  });
});

describe('prettyBody', () => {
  it('indents JSON, given as text or as a value', () => {
    assert.deepEqual(prettyBody('{"a":1}'), { text: '{\n  "a": 1\n}', json: true });
    assert.deepEqual(prettyBody({ a: [1] }), { text: '{\n  "a": [\n    1\n  ]\n}', json: true });
  });
  it('leaves other text as it came, and nothing as empty', () => {
    assert.deepEqual(prettyBody('OK then'), { text: 'OK then', json: false });
    assert.deepEqual(prettyBody(''), { text: '', json: false });
    assert.deepEqual(prettyBody(null), { text: '', json: false });
  });
});
