import { Anchor, Badge, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { GroupPushRule } from '../../../../shared/src/group-push-rules.ts';
import { useGroupPushRule } from '../../api/group-push-rules.ts';
import { QueryContent } from '../../components/states.tsx';
import { groupHref } from '../../paths.ts';

const PATTERNS: [keyof GroupPushRule, string][] = [
  ['commit_message_regex', 'Commit messages must match'],
  ['commit_message_negative_regex', 'Commit messages must not match'],
  ['branch_name_regex', 'Branch names must match'],
  ['author_email_regex', 'Author emails must match'],
  ['file_name_regex', 'File names must not match'],
];
const FLAGS: [keyof GroupPushRule, string][] = [
  ['deny_delete_tag', 'Tags cannot be deleted'],
  ['member_check', 'Authors must be members'],
  ['commit_committer_check', 'Committer must be the pusher'],
  ['commit_committer_name_check', 'Committer name must be the pusher’s'],
  ['prevent_secrets', 'Secret files are refused'],
  ['reject_unsigned_commits', 'Unsigned commits are refused'],
  ['reject_non_dco_commits', 'Commits need a DCO sign-off'],
];

/** What the push rule of the project's group checks, as the project took it; Owners get a link to edit it. */
export function PushRuleCard({ group }: { group: { id: number; full_path: string; name: string } }) {
  const rule = useGroupPushRule(group.id);
  const href = groupHref(group.full_path, 'push_rules');
  // A member of the project alone may not see its group at all (404): the rule is no more theirs to read.
  const notShown = (
    <Text size="sm" c="dimmed">
      The push rule of {group.name} is shown to its Owners. A push it refuses says why on git’s remote: lines.
    </Text>
  );
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="push-rule-title">
      <Title order={2} size="h4" mb="sm" id="push-rule-title">
        Push rule
      </Title>
      <QueryContent query={rule} what="the push rule" forbidden={notShown} notFound={notShown}>
        {(r) =>
          r ? (
            <RuleChecks rule={r} group={group} href={href} />
          ) : (
            <Text size="sm">
              No push rule applies: pushes are checked only for the protected default branch.{' '}
              <Anchor component={Link} to={href}>
                Set one up for {group.name}
              </Anchor>
            </Text>
          )
        }
      </QueryContent>
    </Paper>
  );
}

/** What the rule `r` checks, with the link to edit it. */
function RuleChecks({ rule: r, group, href }: { rule: GroupPushRule; group: { name: string }; href: string }) {
  const patterns = PATTERNS.filter(([k]) => r[k]);
  const flags = FLAGS.filter(([k]) => r[k] === true);
  return (
    <Stack gap="xs">
      {/* The label above its pattern: patterns are long and the card is narrow. */}
      {patterns.map(([k, label]) => (
        <div key={k}>
          <Text size="sm">{label}</Text>
          <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {String(r[k])}
          </Code>
        </div>
      ))}
      {r.max_file_size > 0 && <Text size="sm">Files up to {r.max_file_size} MB</Text>}
      {flags.length > 0 && (
        <Group gap={6}>
          {flags.map(([k, label]) => (
            <Badge key={k} variant="light" color="gray" tt="none" fw={500}>
              {label}
            </Badge>
          ))}
        </Group>
      )}
      {patterns.length === 0 && flags.length === 0 && r.max_file_size === 0 && <Text size="sm">The rule checks nothing yet.</Text>}
      <Anchor component={Link} to={href} size="sm">
        Edit the push rule of {group.name}
      </Anchor>
    </Stack>
  );
}
