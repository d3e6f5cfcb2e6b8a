import { useState } from 'react';
import { Badge, Group, Paper, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useWatch, useFormContext } from 'react-hook-form';
import { checkAgainstPushRule, PUSH_RULE_PATTERN_FIELDS, secretFilePattern, type PushRulePatternField } from '../../../../shared/src/group-push-rules.ts';
import { re2Explanation } from '../../../../shared/src/re2.ts';
import { FIELD_LABELS, type PushRuleValues } from './push-rule-model.ts';

const MONO = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

type SampleKey = 'commit_message' | 'branch_name' | 'author_email' | 'file_name';
type Sample = Record<SampleKey, string>;

const SAMPLE_OF: Record<PushRulePatternField, SampleKey> = {
  commit_message_regex: 'commit_message',
  commit_message_negative_regex: 'commit_message',
  branch_name_regex: 'branch_name',
  author_email_regex: 'author_email',
  file_name_regex: 'file_name',
};
const SAMPLE_NAMES: Record<SampleKey, string> = {
  commit_message: 'commit message',
  branch_name: 'branch name',
  author_email: 'author email',
  file_name: 'file name',
};

type Outcome =
  | { kind: 'unset' }
  | { kind: 'invalid'; problem: string }
  | { kind: 'waiting'; sample: SampleKey }
  | { kind: 'pass' | 'fail'; reason: string };

/**
 * Each pattern's verdict on the sample, with the shared checker the server's rule follows: RE2,
 * as the platform, so a pattern the server would refuse is shown as invalid, with the reason.
 */
function outcomes(patterns: Record<PushRulePatternField, string>, sample: Sample): Record<PushRulePatternField, Outcome> {
  const given = (k: SampleKey) => (sample[k] === '' ? undefined : sample[k]);
  const results = checkAgainstPushRule(patterns, {
    commit_message: given('commit_message'),
    branch_name: given('branch_name'),
    author_email: given('author_email'),
    file_name: given('file_name'),
  });
  const out = {} as Record<PushRulePatternField, Outcome>;
  for (const field of PUSH_RULE_PATTERN_FIELDS) {
    const pattern = patterns[field];
    const result = results.find((r) => r.field === field);
    const problem = pattern ? re2Explanation(pattern) : undefined;
    if (!pattern) out[field] = { kind: 'unset' };
    else if (problem) out[field] = { kind: 'invalid', problem };
    else if (!result) out[field] = { kind: 'waiting', sample: SAMPLE_OF[field] };
    else out[field] = { kind: result.ok ? 'pass' : 'fail', reason: result.reason };
  }
  return out;
}

const SAMPLES: { key: SampleKey; label: string; multiline?: boolean; mono?: boolean }[] = [
  { key: 'commit_message', label: 'Sample commit message', multiline: true },
  { key: 'branch_name', label: 'Sample branch name', mono: true },
  { key: 'author_email', label: 'Sample author email' },
  { key: 'file_name', label: 'Sample file name', mono: true },
];

/** A line under the verdict only where it adds something: why it fails, what is wrong with the pattern, or what is missing. */
const detail = (v: Outcome) =>
  v.kind === 'fail' ? v.reason : v.kind === 'invalid' ? v.problem : v.kind === 'waiting' ? `Enter a sample ${SAMPLE_NAMES[v.sample]}` : null;

const VERDICT: Record<Outcome['kind'], { label: string; color: string; variant: string }> = {
  pass: { label: 'Passes', color: 'teal', variant: 'light' },
  fail: { label: 'Fails', color: 'red', variant: 'filled' },
  unset: { label: 'No rule', color: 'gray', variant: 'outline' },
  invalid: { label: 'Invalid', color: 'red', variant: 'outline' },
  waiting: { label: 'Untested', color: 'gray', variant: 'outline' },
};

/**
 * A try-out panel: sample values checked as you type against the patterns now in the form,
 * before anything is saved.
 */
export function PushRuleTester() {
  const { control } = useFormContext<PushRuleValues>();
  const values = useWatch({ control, name: [...PUSH_RULE_PATTERN_FIELDS] });
  const patterns = Object.fromEntries(PUSH_RULE_PATTERN_FIELDS.map((f, i) => [f, values[i] ?? ''])) as Record<PushRulePatternField, string>;
  const [sample, setSample] = useState<Sample>({ commit_message: '', branch_name: '', author_email: '', file_name: '' });
  const set = (k: SampleKey) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setSample((s) => ({ ...s, [k]: value }));
  };
  const preventSecrets = useWatch({ control, name: 'prevent_secrets' });
  const verdicts = outcomes(patterns, sample);
  // The secrets list judges a new file's name too, as the server does, when the form turns it on.
  const secretHit = sample.file_name ? secretFilePattern(sample.file_name) : undefined;
  const secrets: Outcome = !preventSecrets
    ? { kind: 'unset' }
    : !sample.file_name
      ? { kind: 'waiting', sample: 'file_name' }
      : secretHit
        ? { kind: 'fail', reason: `A secret file: prohibited by the pattern ${secretHit}` }
        : { kind: 'pass', reason: '' };
  const all = [...PUSH_RULE_PATTERN_FIELDS.map((f) => verdicts[f]), secrets];
  const decided = all.filter((v) => v.kind === 'pass' || v.kind === 'fail');
  const failing = decided.filter((v) => v.kind === 'fail');

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="push-rule-tester" bg="gray.0">
      <Title order={3} size="h4" id="push-rule-tester">
        Try the patterns
      </Title>
      <Text size="sm" c="dimmed" mt={2} mb="sm">
        See how the patterns in the form judge a sample push, as you type. Nothing here is saved. Patterns follow RE2 syntax and match anywhere in the
        value unless anchored with ^ and $; in commit messages, ^ and $ match at every line.
      </Text>
      <Text size="sm" fw={600} mb="sm" role="status" aria-live="polite" c={failing.length ? 'red.8' : decided.length ? 'teal.8' : 'dimmed'}>
        {decided.length === 0
          ? 'Enter a sample to check it against the patterns.'
          : failing.length
            ? `This push would be rejected: ${failing.length} of ${decided.length} ${decided.length === 1 ? 'check fails' : 'checks fail'}.`
            : `This push would pass the ${decided.length === 1 ? 'check' : `${decided.length} checks`}.`}
      </Text>
      <Stack gap="md">
        {SAMPLES.map(({ key, label, multiline, mono }) => (
          <div key={key}>
            {multiline ? (
              <Textarea label={label} value={sample[key]} onChange={set(key)} autosize minRows={2} maxRows={5} spellCheck={false} />
            ) : (
              <TextInput label={label} value={sample[key]} onChange={set(key)} spellCheck={false} autoComplete="off" styles={mono ? MONO : undefined} />
            )}
            <Stack component="ul" aria-label={`Checks of the ${SAMPLE_NAMES[key]}`} gap={4} p={0} m={0} mt={6} style={{ listStyle: 'none' }}>
              {PUSH_RULE_PATTERN_FIELDS.filter((f) => SAMPLE_OF[f] === key).map((field) => (
                <VerdictRow key={field} label={FIELD_LABELS[field]} v={verdicts[field]} />
              ))}
              {key === 'file_name' && preventSecrets && <VerdictRow label={FIELD_LABELS.prevent_secrets} v={secrets} />}
            </Stack>
          </div>
        ))}
      </Stack>
    </Paper>
  );
}

/** One check's verdict on the sample: a badge, the check's name, and why where it adds something. */
function VerdictRow({ label, v }: { label: string; v: Outcome }) {
  const look = VERDICT[v.kind];
  return (
    <Group component="li" gap={8} wrap="nowrap" align="flex-start">
      <Badge color={look.color} variant={look.variant} size="sm" tt="none" w={82} style={{ flexShrink: 0 }}>
        {look.label}
      </Badge>
      <Text size="xs" lh={1.4} pt={1} c={v.kind === 'unset' ? 'dimmed' : undefined}>
        <Text span fw={v.kind === 'unset' ? 400 : 600} inherit>
          {label}
        </Text>
        {detail(v) && (
          <Text span c={v.kind === 'fail' || v.kind === 'invalid' ? 'red.8' : 'dimmed'} inherit>
            {' · '}
            {detail(v)}
          </Text>
        )}
      </Text>
    </Group>
  );
}
