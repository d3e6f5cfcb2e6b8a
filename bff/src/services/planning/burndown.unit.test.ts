import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { burndownSeries, chartRange, idealLine, type BurndownEvent } from '../../../../shared/src/burndown.ts';

const ev = (created_at: string, issue_id: number, action: BurndownEvent['action'], weight: number | null = null): BurndownEvent => ({ created_at, issue_id, action, weight });

describe('burndownSeries', () => {
  const events = [
    ev('2026-03-01T09:00:00.000Z', 1, 'created', 3),
    ev('2026-03-01T10:00:00.000Z', 2, 'created', 2),
    ev('2026-02-27T10:00:00.000Z', 3, 'created', 1),
    ev('2026-03-02T12:00:00.000Z', 1, 'closed', 3),
    ev('2026-03-03T12:00:00.000Z', 2, 'weight', 5),
    ev('2026-03-03T13:00:00.000Z', 3, 'removed', 1),
    ev('2026-03-04T08:00:00.000Z', 1, 'reopened', 3),
  ];
  const days = burndownSeries(events, '2026-03-01', '2026-03-04');

  it('counts what happened before the first day in it', () => {
    assert.deepEqual(days[0], { date: '2026-03-01', scopeCount: 3, completedCount: 0, openCount: 3, scopeWeight: 6, completedWeight: 0, openWeight: 6 });
  });
  it('burns down on a close and burns up the completed line', () => {
    assert.deepEqual(days[1], { date: '2026-03-02', scopeCount: 3, completedCount: 1, openCount: 2, scopeWeight: 6, completedWeight: 3, openWeight: 3 });
  });
  it('follows weight changes and removals from the milestone', () => {
    assert.deepEqual(days[2], { date: '2026-03-03', scopeCount: 2, completedCount: 1, openCount: 1, scopeWeight: 8, completedWeight: 3, openWeight: 5 });
  });
  it('puts a reopened issue back among the open ones', () => {
    assert.deepEqual(days[3], { date: '2026-03-04', scopeCount: 2, completedCount: 0, openCount: 2, scopeWeight: 8, completedWeight: 0, openWeight: 8 });
  });
});

describe('chartRange', () => {
  it('runs from the start date to the due date, with figures until today while the milestone is under way', () => {
    assert.deepEqual(chartRange({ start_date: '2026-03-01', due_date: '2026-03-31' }, [], '2026-03-10'), { from: '2026-03-01', to: '2026-03-31', until: '2026-03-10' });
  });
  it('has figures up to the due date once it has passed', () => {
    assert.deepEqual(chartRange({ start_date: '2026-03-01', due_date: '2026-03-05' }, [], '2026-03-10'), { from: '2026-03-01', to: '2026-03-05', until: '2026-03-05' });
  });
  it('starts at the first event without a start date, runs to today without a due date, and is empty without either', () => {
    assert.deepEqual(chartRange({ start_date: null, due_date: null }, [ev('2026-03-02T01:00:00.000Z', 1, 'created')], '2026-03-04'), { from: '2026-03-02', to: '2026-03-04', until: '2026-03-04' });
    assert.equal(chartRange({ start_date: null, due_date: null }, [], '2026-03-04'), null);
  });
  it('keeps a milestone that has not started, or ends before it starts, to its first day', () => {
    assert.deepEqual(chartRange({ start_date: '2026-04-01', due_date: '2026-04-10' }, [], '2026-03-10'), { from: '2026-04-01', to: '2026-04-10', until: '2026-04-01' });
    assert.deepEqual(chartRange({ start_date: '2026-04-01', due_date: '2026-03-20' }, [], '2026-05-10'), { from: '2026-04-01', to: '2026-04-01', until: '2026-04-01' });
  });
});

describe('idealLine', () => {
  it('falls in a straight line from the open total on the first day to zero on the last', () => {
    assert.deepEqual(idealLine(8, '2026-03-01', '2026-03-05'), [
      { date: '2026-03-01', ideal: 8 },
      { date: '2026-03-02', ideal: 6 },
      { date: '2026-03-03', ideal: 4 },
      { date: '2026-03-04', ideal: 2 },
      { date: '2026-03-05', ideal: 0 },
    ]);
  });
  it('rounds to hundredths and has one point for a one-day milestone', () => {
    assert.deepEqual(idealLine(10, '2026-03-01', '2026-03-04').map((d) => d.ideal), [10, 6.67, 3.33, 0]);
    assert.deepEqual(idealLine(3, '2026-03-01', '2026-03-01'), [{ date: '2026-03-01', ideal: 3 }]);
  });
});
