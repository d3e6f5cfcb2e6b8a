import { useState } from 'react';
import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Milestone } from '../../../../shared/src/group-milestones.ts';
import { burndownSeries, chartRange, idealLine, type BurndownEvent } from '../../../../shared/src/burndown.ts';
import { useBurndownEvents, type MilestoneOwner } from '../../api/milestones.ts';
import { EmptyState, QueryContent } from '../../components/states.tsx';

/**
 * Burndown (what is still open, against the ideal straight line to the due date) and burnup
 * (scope and completed) of a milestone, day by day from its start to its due date, replayed from
 * its burndown events up to today; by issue count or by weight. Loaded lazily: it brings the
 * charting library.
 */
export default function BurndownCharts({ of, milestone }: { of: MilestoneOwner; milestone: Milestone }) {
  const events = useBurndownEvents(of, milestone.id);
  const range = events.data && chartRange(milestone, events.data, new Date().toISOString().slice(0, 10));
  return (
    <QueryContent
      query={events}
      what="the burndown events"
      errorTitle="The charts could not be drawn"
      empty={(data) =>
        (!range || data.length === 0) && <EmptyState title="Nothing to chart yet">The charts start once issues join the milestone; a start and a due date give them their span.</EmptyState>
      }
    >
      {(data) => range && <Charts events={data} range={range} />}
    </QueryContent>
  );
}

function Charts({ events, range }: { events: BurndownEvent[]; range: { from: string; to: string; until: string } }) {
  const [by, setBy] = useState<'count' | 'weight'>('count');
  const days = burndownSeries(events, range.from, range.until);
  const weight = by === 'weight';
  // The guideline starts from what was planned: the open total on the first day the milestone
  // had issues (issues often join a day or two after its start).
  const planned = days.find((d) => d.scopeCount > 0) ?? days[0];
  const ideal = idealLine(weight ? planned.openWeight : planned.openCount, range.from, range.to);
  // Days after today are on the axis (the span to the due date) with the ideal line only.
  const burndown = ideal.map(({ date, ideal }, i) => ({ date: date.slice(5), Open: days[i] ? (weight ? days[i].openWeight : days[i].openCount) : null, Ideal: ideal }));
  const burnup = ideal.map(({ date }, i) => ({
    date: date.slice(5),
    Total: days[i] ? (weight ? days[i].scopeWeight : days[i].scopeCount) : null,
    Completed: days[i] ? (weight ? days[i].completedWeight : days[i].completedCount) : null,
  }));
  const last = days[days.length - 1];
  const unit = weight ? 'weight' : 'issues';
  const idealToday = ideal[days.length - 1].ideal;
  return (
    <Stack gap="sm">
      <SegmentedControl
        value={by}
        onChange={(v) => setBy(v === 'weight' ? 'weight' : 'count')}
        data={[
          { value: 'count', label: 'Issues' },
          { value: 'weight', label: 'Issue weight' },
        ]}
        aria-label="Chart by"
        w="fit-content"
      />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <figure style={{ margin: 0 }} aria-labelledby="burndown-title">
          <Title order={4} size="h5" id="burndown-title">
            Burndown chart
          </Title>
          <Text size="xs" c="dimmed" mb="xs" data-testid="burndown-summary">
            {weight ? last.openWeight : last.openCount} {unit} open on {last.date} (ideal: {idealToday}); due {range.to}
          </Text>
          <LineChart
            h={220}
            data={burndown}
            dataKey="date"
            series={[
              { name: 'Open', color: 'orange.6' },
              { name: 'Ideal', color: 'gray.6', strokeDasharray: '5 5', curveType: 'linear' },
            ]}
            curveType="stepAfter"
            withDots={false}
            withLegend
          />
        </figure>
        <figure style={{ margin: 0 }} aria-labelledby="burnup-title">
          <Title order={4} size="h5" id="burnup-title">
            Burnup chart
          </Title>
          <Text size="xs" c="dimmed" mb="xs" data-testid="burnup-summary">
            {weight ? last.completedWeight : last.completedCount} of {weight ? last.scopeWeight : last.scopeCount} {unit} completed on {last.date}
          </Text>
          <LineChart
            h={220}
            data={burnup}
            dataKey="date"
            series={[
              { name: 'Total', color: 'gray.6' },
              { name: 'Completed', color: 'blue.6' },
            ]}
            curveType="stepAfter"
            withDots={false}
            withLegend
          />
        </figure>
      </SimpleGrid>
    </Stack>
  );
}
