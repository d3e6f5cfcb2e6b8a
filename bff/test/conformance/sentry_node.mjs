// The official Node SDK (@sentry/node), unchanged, reporting into the DSN it is given
// (SENTRY_DSN): an exception raised twice by one function for two users, a message, an event
// large enough for the SDK to gzip it (its transport compresses bodies past 32 KB), and a
// session. Tagged by SCENARIO_TAG so the test can find what each run recorded.
import * as Sentry from '@sentry/node';

const tag = process.env.SCENARIO_TAG ?? 'untagged';
Sentry.init({ dsn: process.env.SENTRY_DSN, release: 'conformance@1.0.0', environment: 'conformance', tracesSampleRate: 0 });

function failingHandler() {
  throw new TypeError(`node conformance ${tag}`);
}

function report(user) {
  Sentry.setUser(user);
  try {
    failingHandler();
  } catch (e) {
    Sentry.captureException(e);
  }
  Sentry.setUser(null);
}

// The SDK drops an event identical to the one before it (its dedupe integration): the message
// comes between the two exceptions.
report({ id: 'node-user-1' });
Sentry.captureMessage(`node message ${tag}`);
report({ email: 'node-user-2@example.com' });
Sentry.withScope((scope) => {
  scope.setExtra('padding', 'x'.repeat(40 * 1024));
  Sentry.captureException(new RangeError(`node gzip ${tag}`));
});
Sentry.startSession();
Sentry.endSession();
const flushed = await Sentry.flush(10_000);
console.log(`FLUSHED ${flushed}`);
