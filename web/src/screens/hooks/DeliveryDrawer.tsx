import { useState, type ReactNode } from 'react';
import { ActionIcon, Alert, Anchor, Badge, Button, Code, CopyButton, Drawer, Group, ScrollArea, SimpleGrid, Stack, Table, Tabs, Text, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { HookEvent } from '../../../../shared/src/hooks.ts';
import { isApiError } from '../../api/client.ts';
import { useResendHookEvent, type HookOwner } from '../../api/hooks.ts';
import { IconCheck, IconCopy, IconRefresh } from '../../components/icons.tsx';
import { errorMessage } from '../../components/states.tsx';
import { formatPreciseDuration, fromNow, fullDateTime } from '../../format.ts';
import { CATEGORY_LABELS, explainDeliveryError, prettyBody, statusCategory, triggerLabel } from './hook-format.ts';
import { StatusBadge } from './status-parts.tsx';
import { hiddenByStatus } from './deliveries-params.ts';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} lts={0.3}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

function HeadersTable({ headers, label }: { headers: Record<string, string>; label: string }) {
  const entries = Object.entries(headers);
  if (entries.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No headers.
      </Text>
    );
  }
  // Narrow enough for a phone's drawer (360 px less its padding); long values wrap.
  return (
    <Table.ScrollContainer minWidth={300} type="native">
      <Table withTableBorder withColumnBorders verticalSpacing={4} fz="xs" aria-label={label}>
        <Table.Tbody>
          {entries.map(([k, v]) => (
            <Table.Tr key={k}>
              <Table.Th w="38%" ff="monospace" fw={600} style={{ verticalAlign: 'top', overflowWrap: 'anywhere' }}>
                {k}
              </Table.Th>
              <Table.Td ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {v}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A body pretty-printed when it is JSON, as sent when it is not, with a copy button. */
function Body({ value, label }: { value: unknown; label: string }) {
  const { text, json } = prettyBody(value);
  if (!text) {
    return (
      <Text size="sm" c="dimmed">
        Empty body.
      </Text>
    );
  }
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs">
        <Badge size="xs" variant="light" color="gray" tt="none">
          {json ? 'JSON' : 'Plain text'} · {text.length.toLocaleString()} characters
        </Badge>
        <CopyButton value={text} timeout={1500}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : `Copy ${label.toLowerCase()}`} withArrow>
              <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      {/* A long body scrolls: reachable by Tab so a keyboard can scroll it. */}
      <ScrollArea.Autosize mah={420} type="auto" offsetScrollbars viewportProps={{ tabIndex: 0 }}>
        <Code block aria-label={label} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontSize: 12 }}>
          {text}
        </Code>
      </ScrollArea.Autosize>
    </Stack>
  );
}

type ResendOutcome = { kind: 'sent'; status: number } | { kind: 'limited'; seconds: number | null } | { kind: 'failed'; message: string; attempt: string | null };

/** The delivery log's filter, as the drawer needs it to say where a new attempt went. */
export interface LogFilter {
  status: string;
  clear: () => void;
}

/** Where the new attempt (`what`) is: at the top of the log, or hidden by its filter, with the way to show it. */
function WhereItIs({ what, status, filter }: { what: string; status: string; filter: LogFilter }) {
  if (!hiddenByStatus(filter.status, status)) return <>The {what} is at the top of the log.</>;
  return (
    <>
      The log’s status filter hides the {what}.{' '}
      <Anchor component="button" type="button" onClick={filter.clear} inherit>
        Show all deliveries
      </Anchor>
    </>
  );
}

function OutcomeAlert({ outcome, filter }: { outcome: ResendOutcome; filter: LogFilter }) {
  if (outcome.kind === 'sent') {
    const category = statusCategory(String(outcome.status));
    const ok = category === 'successful';
    return (
      <Alert color={ok ? 'teal' : category === 'client_failure' ? 'orange' : 'red'} variant="light" title={`Resent: HTTP ${outcome.status}`} role="status">
        {ok
          ? 'The receiver accepted the event again, with the same Idempotency-Key. If the webhook was disabled, it is enabled again.'
          : `The receiver answered with a ${CATEGORY_LABELS[category].toLowerCase()} again.`}{' '}
        <WhereItIs what="new delivery" status={String(outcome.status)} filter={filter} />
      </Alert>
    );
  }
  if (outcome.kind === 'limited') {
    return (
      <Alert color="orange" variant="light" title="Too many resends" role="alert">
        A delivery of this webhook can be resent 5 times a minute.{' '}
        {outcome.seconds !== null ? `Try again in ${outcome.seconds} ${outcome.seconds === 1 ? 'second' : 'seconds'}.` : 'Try again in a minute.'}
      </Alert>
    );
  }
  return (
    <Alert color="red" variant="light" title="Resend failed" role="alert">
      {outcome.message} {outcome.attempt !== null && <WhereItIs what="attempt" status={outcome.attempt} filter={filter} />}
    </Alert>
  );
}

/** What a refused resend means for the person at the drawer, in one sentence. */
function failedResend(e: unknown): string {
  if (!isApiError(e)) return errorMessage(e);
  if (e.status === 403) return 'You no longer have the role to manage these webhooks.';
  // 422: the receiver gave no HTTP answer; the message is the outbound client's ("ECONNREFUSED: …").
  if (e.status === 422) return explainDeliveryError(e.message).long;
  return errorMessage(e);
}

/**
 * One delivery in full: what was sent, what came back, and a Resend that delivers the same
 * event again. The record comes from the log's page; nothing more is fetched.
 */
export function DeliveryDrawer({
  owner,
  hookId,
  event,
  onClose,
  filter,
}: {
  owner: HookOwner;
  hookId: number;
  event: HookEvent | null;
  onClose: () => void;
  /** The log's status filter (a category or a code, '' for none), and how to clear the log's filters. */
  filter: LogFilter;
}) {
  const narrow = useMediaQuery('(max-width: 48em)');
  return (
    <Drawer
      opened={event !== null}
      onClose={onClose}
      position="right"
      size={narrow ? '100%' : 'xl'}
      title={event ? `Delivery ${event.id} · ${triggerLabel(event.trigger)}` : ''}
      styles={{ title: { fontWeight: 650, fontSize: 'var(--mantine-font-size-lg)' } }}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {/* A fresh panel per delivery, so a resend outcome stays with the delivery it was for. */}
      {event && <DeliveryDetail key={event.id} owner={owner} hookId={hookId} event={event} filter={filter} />}
    </Drawer>
  );
}

function DeliveryDetail({ owner, hookId, event, filter }: { owner: HookOwner; hookId: number; event: HookEvent; filter: LogFilter }) {
  // The outcome shows in the panel, beside the button.
  const resend = useResendHookEvent(owner, hookId, { meta: { showsError: () => true } });
  const [outcome, setOutcome] = useState<ResendOutcome | null>(null);
  const key = event.request_headers['Idempotency-Key'];

  const doResend = async () => {
    setOutcome(null);
    try {
      const res = await resend.mutateAsync(event.id);
      setOutcome({ kind: 'sent', status: res.response_status });
    } catch (e) {
      if (isApiError(e) && e.status === 401) return;
      // One outcome, in the panel beside the button: a toast would cover the drawer it is about.
      // A 422 is an attempt without an HTTP answer: logged, as a server failure.
      const attempt = isApiError(e) && e.status === 422 ? 'no response' : null;
      setOutcome(isApiError(e) && e.status === 429 ? { kind: 'limited', seconds: e.retryAfterSeconds } : { kind: 'failed', message: failedResend(e), attempt });
    }
  };

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
        <Fact label="Status">
          <Group gap={6} wrap="nowrap" mt={2}>
            <StatusBadge status={event.response_status} />
          </Group>
        </Fact>
        <Fact label="Duration">{formatPreciseDuration(event.execution_duration)}</Fact>
        <Fact label="Sent">
          <time dateTime={event.created_at}>{fullDateTime(event.created_at)}</time>
          <Text size="xs" c="dimmed">
            {fromNow(event.created_at)}
          </Text>
        </Fact>
        <Fact label="Event">{triggerLabel(event.trigger)}</Fact>
      </SimpleGrid>
      <Fact label="URL">
        <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {event.url}
        </Text>
      </Fact>
      {key && (
        <Fact label="Idempotency-Key">
          <Text size="sm" ff="monospace">
            {key}
          </Text>
        </Fact>
      )}
      {event.internal_error_message && (
        <Alert color="red" variant="light" title="No HTTP answer">
          <Text size="sm">{explainDeliveryError(event.internal_error_message).long}</Text>
          {/* The client's own words, for whoever runs the receiver, on demand. */}
          <details className="gh-raw-error">
            <summary>The error as reported</summary>
            <code>{event.internal_error_message}</code>
          </details>
        </Alert>
      )}

      <Group gap="sm" align="center">
        <Button leftSection={<IconRefresh size={16} />} onClick={() => void doResend()} loading={resend.isPending}>
          Resend
        </Button>
        <Text size="xs" c="dimmed" style={{ flex: '1 1 200px' }}>
          Sends the same payload again with the same Idempotency-Key, so the receiver can tell it is a repeat.
        </Text>
      </Group>
      {outcome && <OutcomeAlert outcome={outcome} filter={filter} />}

      <Tabs defaultValue="request" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="request">Request</Tabs.Tab>
          <Tabs.Tab value="response">Response</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="request" pt="md">
          <Stack gap="md">
            <Stack gap={6}>
              <Text fw={600} size="sm">
                Request headers
              </Text>
              <HeadersTable headers={event.request_headers} label="Request headers" />
            </Stack>
            <Stack gap={6}>
              <Text fw={600} size="sm">
                Request body
              </Text>
              <Body value={event.request_data} label="Request body" />
            </Stack>
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="response" pt="md">
          <Stack gap="md">
            <Stack gap={6}>
              <Text fw={600} size="sm">
                Response headers
              </Text>
              <HeadersTable headers={event.response_headers} label="Response headers" />
            </Stack>
            <Stack gap={6}>
              <Text fw={600} size="sm">
                Response body
              </Text>
              <Body value={event.response_body} label="Response body" />
            </Stack>
          </Stack>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
