import { git } from '../services/git/git-run.ts';

interface Author {
  name: string;
  email: string;
}

const KINDS = ['feat', 'fix', 'docs', 'chore', 'refactor', 'test'] as const;
const TOPICS = ['login', 'cache', 'logging', 'config', 'search', 'export', 'metrics', 'retries', 'timeouts', 'pagination', 'health check', 'rate limits'];

/**
 * A demo project's history, written in one `git fast-import` run (a few milliseconds): `main`
 * with `commits` commits over the last weeks by the demo people, two feature branches and a
 * fix branch off it, and tags v0.1.0 (annotated) and v0.2.0. Messages, branch names and
 * emails pass the demo group's push rule, so the history looks like one the rule let in.
 */
export async function seedRepository(dir: string, project: { name: string; description: string }, authors: Author[], commits = 30): Promise<void> {
  const lines: string[] = [];
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}`;
  const files = new Map<string, string>();
  const start = Date.now() - commits * 86_400_000;
  let mark = 0;
  let when = start;
  const commit = (ref: string, message: string, changes: Record<string, string>, author: Author, from?: number) => {
    mark++;
    when += 3_600_000 * (6 + (mark % 17));
    const stamp = `${Math.floor(when / 1000)} +0000`;
    lines.push(`commit ${ref}`, `mark :${mark}`, `author ${author.name} <${author.email}> ${stamp}`, `committer ${author.name} <${author.email}> ${stamp}`, data(`${message}\n`));
    if (from) lines.push(`from :${from}`);
    for (const [path, content] of Object.entries(changes)) {
      files.set(path, content);
      lines.push(`M 100644 inline ${path}`, data(content));
    }
    return mark;
  };

  let head = commit('refs/heads/main', 'chore: initial commit', { 'README.md': `# ${project.name}\n\n${project.description}\n`, '.gitignore': 'node_modules/\ndist/\n' }, authors[0]);
  let v010 = 0;
  for (let i = 1; i < commits; i++) {
    const kind = KINDS[i % KINDS.length];
    const topic = TOPICS[i % TOPICS.length];
    const path = kind === 'docs' ? `docs/${topic.replace(/ /g, '-')}.md` : kind === 'test' ? `test/${topic.replace(/ /g, '-')}.test.js` : `src/${topic.replace(/ /g, '-')}.js`;
    const previous = files.get(path) ?? '';
    const body = kind === 'docs' ? `${previous}\n## ${topic} (${i})\n\nHow ${topic} works.\n` : `${previous}// ${kind} ${topic}, step ${i}\nexport const ${topic.replace(/ /g, '_')}${i} = ${i};\n`;
    head = commit('refs/heads/main', `${kind}: ${kind === 'fix' ? 'correct' : 'improve'} ${topic}`, { [path]: body }, authors[i % authors.length]);
    if (i === Math.floor(commits / 2)) v010 = head;
  }
  const branch = (name: string, messages: string[], author: Author) => {
    messages.forEach((m, k) => commit(`refs/heads/${name}`, m, { [`src/${name.split('/')[1]}-${k}.js`]: `// ${m}\n` }, author, k === 0 ? head : undefined));
  };
  branch('feature/dark-mode', ['feat(ui): dark mode toggle', 'feat(ui): remember the chosen theme'], authors[2 % authors.length]);
  branch('feature/audit-log', ['feat: record sign-ins in the audit log'], authors[1 % authors.length]);
  branch('fix/typo-readme', ['docs: fix a typo in the README'], authors[3 % authors.length]);
  lines.push('tag v0.1.0', `from :${v010}`, `tagger ${authors[0].name} <${authors[0].email}> ${Math.floor(when / 1000)} +0000`, data('First preview release\n'));
  lines.push('reset refs/tags/v0.2.0', `from :${head}`);
  await git(dir, ['fast-import', '--quiet', '--done'], { input: lines.join('\n') + '\ndone\n' });
}
