import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { StackTraceEntry } from '../../../../shared/src/error-tracking.ts';
import { dayName, foldFrames, frequencySummary, isDependencyFrame } from './error-model.ts';

const frame = (filename: string | null, fn: string, in_app: boolean | null = null): StackTraceEntry => ({ filename, function: fn, lineNo: 1, colNo: null, context: [], in_app });

describe('isDependencyFrame', () => {
  it('tells dependencies and the runtime from the application by the filename', () => {
    for (const f of ['/app/node_modules/express/lib/router.js', 'node:internal/process/task_queues', 'internal/timers.js', '/usr/lib/python3/dist-packages/flask/app.py', 'C:\\app\\node_modules\\x.js', '/venv/lib/python3.11/site-packages/django/core.py']) {
      assert.equal(isDependencyFrame({ filename: f, in_app: null }), true, f);
    }
    for (const f of ['/app/src/server.js', 'app.py', 'src/node_modules_helper.ts', null]) assert.equal(isDependencyFrame({ filename: f, in_app: null }), false, String(f));
  });

  it('trusts an SDK that marks a frame not the application’s', () => {
    assert.equal(isDependencyFrame({ filename: '/usr/lib/python3.11/threading.py', in_app: false }), true);
  });
});

describe('foldFrames', () => {
  // As the SDK sends them: outermost first.
  const frames = [frame('node:internal/main', 'run'), frame('/app/node_modules/express/index.js', 'handle'), frame('/app/src/routes.js', 'route'), frame('/app/src/db.js', 'query')];

  it('puts the most recent call first and folds the dependencies away', () => {
    const folded = foldFrames(frames, false);
    assert.deepEqual(folded.shown.map((f) => f.function), ['query', 'route']);
    assert.equal(folded.hidden, 2);
  });

  it('shows every frame when asked, still most recent first', () => {
    assert.deepEqual(foldFrames(frames, true), { shown: [...frames].reverse(), hidden: 0 });
  });

  it('folds nothing when no frame is the application’s', () => {
    assert.deepEqual(foldFrames(frames.slice(0, 2), false).hidden, 0);
  });
});

describe('frequencySummary', () => {
  it('says the total and the busiest bucket', () => {
    const day = Date.UTC(2026, 10, 29) / 1000;
    assert.equal(frequencySummary([[day - 86_400, 1], [day, 4]], '30 days', dayName), '5 events in the last 30 days; the most, 4, on Nov 29.');
    assert.equal(frequencySummary([[day, 0]], '24 hours', dayName), 'No events in the last 24 hours.');
  });
});
