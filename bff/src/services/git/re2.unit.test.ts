import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compileRe2, quoteRe2, RE2_MAX_PROGRAM, re2Explanation, re2Problem, re2Test, Re2SyntaxError } from '../../../../shared/src/re2.ts';
import { checkAgainstPushRule, commitViolation, groupPushRuleBody, pushRuleAllows, secretFilePattern } from '../../../../shared/src/group-push-rules.ts';
import { branchFilterProblem } from '../../../../shared/src/hooks.ts';

/** Milliseconds one call takes. */
function timed(fn: () => unknown): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

/*
 * Inputs that stall a backtracking engine: on V8, `(a+)+$` against 30 a's and a "!" takes about
 * 12 s and doubles with every further a; RE2 answers at once. (Not run on RegExp here: the
 * point is not to wait for it.)
 */
const STALLERS: [pattern: string, input: string][] = [
  ['(a+)+$', `${'a'.repeat(30)}!`],
  ['^(a|a)*$', `${'a'.repeat(30)}!`],
  ['^(\\w+\\s?)*$', `${'word '.repeat(20)}!`],
  ['(x+x+)+y', 'x'.repeat(5_000)],
  ['(a+)+$', `${'a'.repeat(200_000)}!`],
];

describe('shared/src/re2.ts', () => {
  describe('RE2 syntax', () => {
    it('accepts what RE2 accepts and JavaScript does not, with RE2 meaning', () => {
      assert.ok(re2Test('(?i)^(feat|fix): .+', 'FIX: x'));
      assert.ok(!re2Test('^(feat|fix): .+', 'FIX: x'));
      assert.ok(re2Test('^(?P<type>feat|fix)(\\(\\w+\\))?: ', 'feat(ui): y'));
      assert.ok(re2Test('\\Aabc\\z', 'abc'));
      assert.ok(!re2Test('\\Aabc\\z', 'abc\n'));
      assert.ok(re2Test('^[[:alpha:]]+$', 'Hello'));
      assert.ok(re2Test('^\\pL+$', 'Grüße'));
      assert.ok(re2Test('^\\Qa.b*\\E$', 'a.b*'));
      assert.ok(!re2Test('^\\Qa.b*\\E$', 'aXbbb'));
      assert.ok(re2Test('(?s)a.b', 'a\nb'));
      assert.ok(!re2Test('a.b', 'a\nb'), 'a dot does not cross a line break without (?s)');
      assert.ok(re2Test('^.$', '😀'), 'a dot is one character, not one UTF-16 unit');
      for (const pattern of ['(?i)^(feat|fix): .+', '(?U)a+', '\\x{263A}', '(?P<n>a)', '(?<n>a)', 'a{,3}', '[\\d-z]']) {
        assert.equal(re2Problem(pattern), undefined, pattern);
      }
    });

    it('refuses what RE2 refuses, saying what is wrong in words', () => {
      const cases: [string, string][] = [
        ['^(?!WIP).+', 'uses a lookahead (?!…), which RE2 does not support'],
        ['foo(?=bar)', 'uses a lookahead (?=…), which RE2 does not support'],
        ['(?<=a)b', 'uses a lookbehind (?<=…), which RE2 does not support'],
        ['(?<!a)b', 'uses a lookbehind (?<!…), which RE2 does not support'],
        ['(\\w)\\1', 'uses a backreference \\1, which RE2 does not support'],
        ['(?P<n>a)(?P=n)', 'uses a backreference (?P=name), which RE2 does not support'],
        ['(?>a+)b', 'uses an atomic group (?>…), which RE2 does not support'],
        ['a++', 'uses a possessive repetition ++, which RE2 does not support'],
        ['(?#note)a', 'uses a comment (?#…), which RE2 does not support'],
        ['(?x) a b', 'uses the flag x in (?x…), which RE2 does not support: its flags are i, m, s and U'],
        ['feature/(', 'has an unclosed group: a ( is missing its ) (write \\( for a literal parenthesis)'],
        ['(a|b', 'has an unclosed group: a ( is missing its ) (write \\( for a literal parenthesis)'],
        ['a)', 'has a ) that closes no group (write \\) for a literal parenthesis)'],
        ['[abc', 'has an unclosed character class: a [ is missing its ] (write \\[ for a literal bracket)'],
        ['[z-a]', 'has a character range z-a that runs backwards: write the smaller character first'],
        ['*.exe', 'has an invalid repetition: * follows nothing it could repeat (write \\* for a literal *)'],
        ['a**', 'has an invalid repetition **: a repetition cannot be repeated directly (wrap it in (?:…) first)'],
        ['a{2,1}', 'has an invalid repetition {2,1}: the minimum is larger than the maximum'],
        ['a{1001}', 'has an invalid repetition {1001}: RE2 repeats at most 1000 times'],
        ['(?:a{100}){20}', 'has an invalid repetition {20}: repetitions nested in one another may not repeat more than 1000 times in all'],
        ['\\p{Klingon}', 'uses an unknown Unicode class \\p{Klingon}'],
        ['[[:word2:]]', 'uses an unknown character class [:word2:]'],
        ['\\Z', 'uses \\Z, which RE2 does not support: write \\z for the end of the text, or $'],
        ['\\u00e9', 'uses \\u, which RE2 does not support: write \\x{263A} for a character by its code'],
        ['\\h', 'uses the escape \\h, which RE2 does not know (write \\\\ for a backslash)'],
        ['abc\\', 'ends with a lone \\ (write \\\\ for a literal backslash)'],
        ['(?P<n>a)(?P<n>b)', 'names two groups n: each group name may be used once'],
        ['(?<>a)', 'has an invalid group name in (?<>: a group name is letters, digits and _'],
        ['(?i', 'has an unfinished flag group (?i: close it with ) or :'],
      ];
      for (const [pattern, message] of cases) assert.equal(re2Problem(pattern), message, pattern);
    });

    it('explains a refused pattern to the console in a sentence that points at the culprit, while the API phrase stays as it was', () => {
      const cases: [string, string][] = [
        ['^(feat|fix/', 'Missing closing parenthesis for the group opened at position 2. Add a ) to close it, or write \\( for a literal parenthesis.'],
        ['^(a(b)|c', 'Missing closing parenthesis for the group opened at position 2. Add a ) to close it, or write \\( for a literal parenthesis.'],
        ['\\(x[(]((y', 'Missing closing parenthesis for the group opened at position 8. Add a ) to close it, or write \\( for a literal parenthesis.'],
        ['ab)c(d)', 'The ) at position 3 closes no group. Remove it, or write \\) for a literal parenthesis.'],
        ['x[]a', 'Missing closing bracket for the character class opened at position 2. Add a ] to close it, or write \\[ for a literal bracket.'],
        ['é[z-a]', 'The range z-a at position 3 runs backwards. Write the smaller character first: a-z.'],
        ['*.exe', 'The * at position 1 has nothing before it to repeat. Write \\* for a literal *. For any text, write .* instead.'],
        ['ab**', 'The repetition ** at position 3 repeats a repetition. Remove one of them, or wrap the first in (?:…).'],
        ['abc\\', 'The pattern ends with a lone backslash. Write \\\\ for a literal backslash.'],
        ['^(?!WIP).+', 'Uses a lookahead (?!…), which RE2 does not support (at position 2).'],
        ['a{2,1}', 'Has an invalid repetition {2,1}: the minimum is larger than the maximum (at position 2).'],
        ['ok\\h', 'Uses the escape \\h, which RE2 does not know (write \\\\ for a backslash) (at position 3).'],
      ];
      for (const [pattern, explanation] of cases) assert.equal(re2Explanation(pattern), explanation, pattern);
      assert.equal(re2Explanation('^(feat|fix)/'), undefined);
      // The API's wording is unchanged: the explanation is the console's alone.
      assert.equal(re2Problem('^(feat|fix/'), 'has an unclosed group: a ( is missing its ) (write \\( for a literal parenthesis)');
    });

    it('throws a Re2SyntaxError naming the pattern and the reason when asked to match with an invalid one', () => {
      assert.throws(
        () => re2Test('^(?!WIP)', 'x'),
        (e: unknown) => e instanceof Re2SyntaxError && e.pattern === '^(?!WIP)' && e.problem.startsWith('uses a lookahead') && e.message.includes('"^(?!WIP)"'),
      );
    });

    it('refuses a pattern whose program is too large to match cheaply, as RE2 refuses one over its memory budget', () => {
      const huge = '(?:\\pL{1000})'.repeat(6);
      assert.equal(re2Problem(huge), 'is too large for RE2: use smaller repetition counts');
      assert.equal(re2Problem('^[a-z0-9-]{1,1000}$'), undefined, 'a long but plain repetition stays allowed');
      assert.ok(RE2_MAX_PROGRAM >= 5_000);
    });
  });

  describe('matching', () => {
    it('searches anywhere in the text unless anchored, as UntrustedRegexp#===', () => {
      assert.ok(re2Test('main', 'not-main-really'));
      assert.ok(!re2Test('^main$', 'not-main-really'));
      assert.ok(re2Test('', 'anything'));
    });

    it('matches ^ and $ at every line in multi-line mode only', () => {
      assert.ok(!re2Test('^fix: ', 'feat: a\nfix: b'));
      assert.ok(re2Test('^fix: ', 'feat: a\nfix: b', { multiline: true }));
      assert.ok(re2Test('^feat: a$', 'feat: a\nfix: b', { multiline: true }));
      assert.ok(!re2Test('(?-m)^fix', 'feat\nfix', { multiline: true }), 'the pattern can turn it off again');
    });

    for (const [pattern, input] of STALLERS) {
      it(`answers ${pattern} against ${input.length} characters that stall a backtracking engine in well under a second`, () => {
        let result: boolean | undefined;
        const ms = timed(() => {
          result = re2Test(pattern, input);
        });
        assert.equal(result, false);
        assert.ok(ms < 1_000, `${ms.toFixed(0)} ms`);
      });
    }

    it('compiles each pattern once for repeated use', () => {
      assert.equal(compileRe2('^release/\\d+$'), compileRe2('^release/\\d+$'));
      assert.notEqual(compileRe2('^x$'), compileRe2('^x$', { multiline: true }));
    });

    it('quotes text so that it matches literally', () => {
      const text = 'a.b*c+(d)[e]{f}|g^h$i\\j?';
      assert.ok(re2Test(`^${quoteRe2(text)}$`, text));
      assert.ok(!re2Test(`^${quoteRe2('a.c')}$`, 'abc'));
    });
  });
});

describe('push-rule patterns (shared/src/group-push-rules.ts)', () => {
  it('validates the body with RE2: (?i) accepted, a lookahead refused under its field', () => {
    assert.ok(groupPushRuleBody.safeParse({ commit_message_regex: '(?i)^(feat|fix): .+' }).success);
    const refused = groupPushRuleBody.safeParse({ branch_name_regex: '^(?!WIP).+' });
    assert.ok(!refused.success);
    assert.deepEqual(
      refused.error.issues.map((i) => [i.path.join('.'), i.message]),
      [['branch_name_regex', 'uses a lookahead (?!…), which RE2 does not support']],
    );
  });

  it('takes a rejected-message pattern up to 2047 characters and the others up to 511, as the platform', () => {
    assert.ok(groupPushRuleBody.safeParse({ commit_message_negative_regex: 'a'.repeat(2047) }).success);
    assert.ok(!groupPushRuleBody.safeParse({ commit_message_negative_regex: 'a'.repeat(2048) }).success);
    assert.ok(groupPushRuleBody.safeParse({ commit_message_regex: 'a'.repeat(511) }).success);
    assert.ok(!groupPushRuleBody.safeParse({ commit_message_regex: 'a'.repeat(512) }).success);
  });

  it('applies each pattern as PushRuleable does', () => {
    // Commit messages: multi-line, so a pattern may require a line anywhere in the message.
    assert.ok(pushRuleAllows('commit_message_regex', '^Refs: #\\d+$', 'feat: x\n\nRefs: #12\n'));
    assert.ok(!pushRuleAllows('commit_message_regex', '^Refs: #\\d+$', 'feat: x\n\nRefs: none\n'));
    assert.ok(pushRuleAllows('commit_message_regex', '(?i)^(feat|fix): .+', 'FIX: x'));
    // Rejected messages: multi-line too, judged without the final line break.
    assert.ok(!pushRuleAllows('commit_message_negative_regex', '^WIP', 'feat: x\nWIP'));
    assert.ok(pushRuleAllows('commit_message_negative_regex', '\\s\\z', 'feat: x\n'), 'the final line break is chomped');
    assert.ok(!pushRuleAllows('commit_message_negative_regex', '\\s\\z', 'feat: x \n'));
    // Branch names and emails: single-line, unanchored.
    assert.ok(pushRuleAllows('branch_name_regex', 'feat', 'my-feat-branch'));
    assert.ok(!pushRuleAllows('branch_name_regex', '^feat', 'my-feat-branch'));
    assert.ok(pushRuleAllows('author_email_regex', '@acme\\.com$', 'ann@acme.com'));
    // File names: a match rejects.
    assert.ok(!pushRuleAllows('file_name_regex', '\\.exe$', 'bin/tool.exe'));
    assert.ok(pushRuleAllows('file_name_regex', '\\.exe$', 'bin/tool.sh'));
  });

  it('the tester judges with the same engine, leaves invalid patterns out, and is fast on a stalling input', () => {
    const rule = { commit_message_regex: '(?i)^(feat|fix): .+', branch_name_regex: '^(?!WIP)', author_email_regex: '(a+)+$' };
    let results: ReturnType<typeof checkAgainstPushRule> = [];
    const ms = timed(() => {
      results = checkAgainstPushRule(rule, { commit_message: 'FIX: x', branch_name: 'main', author_email: `${'a'.repeat(30)}!` });
    });
    assert.deepEqual(
      results.map((r) => [r.field, r.ok]),
      [
        ['commit_message_regex', true],
        ['author_email_regex', false],
      ],
    );
    assert.ok(ms < 1_000, `${ms.toFixed(0)} ms`);
  });
});

describe('regex branch filters of webhooks (shared/src/hooks.ts)', () => {
  it('are checked with RE2, wildcards as before', () => {
    assert.equal(branchFilterProblem('(?i)^release/', 'regex'), undefined);
    assert.equal(branchFilterProblem('^(?!main$)', 'regex'), 'uses a lookahead (?!…), which RE2 does not support');
    assert.equal(branchFilterProblem('release/(', 'regex'), 'has an unclosed group: a ( is missing its ) (write \\( for a literal parenthesis)');
    assert.equal(branchFilterProblem('release/(', 'wildcard'), undefined, 'a parenthesis is a character in a wildcard');
    assert.equal(branchFilterProblem('main branch', 'wildcard'), 'is not a valid branch name pattern');
  });
});

describe("the secrets list of push rules (prevent_secrets), one function for the server's check and the console's tester", () => {
  const pusher = { name: null, emails: [], isUserEmail: () => true };
  const commit = (path: string, status: 'added' | 'modified' = 'added') => ({
    id: 'c0ffee00',
    message: 'feat: x',
    authorName: 'A',
    authorEmail: 'a@example.com',
    committerName: 'A',
    committerEmail: 'a@example.com',
    signed: false,
    files: [{ path, status }],
  });
  it('names the pattern that prohibits a new file, and the server refuses exactly what the tester flags', () => {
    for (const [path, pattern] of [
      ['deploy/id_rsa', 'id_rsa$'],
      ['certs/site.pem', '\\.(pem|key)$'],
      ['.bash_history', '[._]history$'],
      ['home/.aws/credentials', 'aws\\/credentials$'],
    ] as const) {
      assert.equal(secretFilePattern(path), pattern, path);
      assert.deepEqual(commitViolation({ prevent_secrets: true }, commit(path), pusher), { check: 'prevent_secrets', message: `File name ${path} was prohibited by the pattern ${JSON.stringify(pattern)}.` });
    }
    for (const path of ['README.md', 'id_rsa.pub', 'src/key.ts']) {
      assert.equal(secretFilePattern(path), undefined, path);
      assert.equal(commitViolation({ prevent_secrets: true }, commit(path), pusher), undefined, path);
    }
    // Off, or a file that only changed: not checked, as on the platform.
    assert.equal(commitViolation({ prevent_secrets: false }, commit('deploy/id_rsa'), pusher), undefined);
    assert.equal(commitViolation({ prevent_secrets: true }, commit('deploy/id_rsa', 'modified'), pusher), undefined);
  });
});
