import { gitText } from './git-run.ts';

/**
 * The languages of a repository's files by extension (or by name), under the names the
 * platform's detector (linguist) gives them. Only programming and markup languages count, as
 * there: data (JSON, YAML), prose (Markdown, text) and configuration are left out.
 */
const BY_EXTENSION: Record<string, string> = {
  rb: 'Ruby', rake: 'Ruby', gemspec: 'Ruby', ru: 'Ruby',
  py: 'Python', pyw: 'Python', pyi: 'Python',
  js: 'JavaScript', mjs: 'JavaScript', cjs: 'JavaScript', jsx: 'JavaScript',
  ts: 'TypeScript', mts: 'TypeScript', cts: 'TypeScript', tsx: 'TSX',
  go: 'Go', java: 'Java', kt: 'Kotlin', kts: 'Kotlin', scala: 'Scala', groovy: 'Groovy', gradle: 'Groovy', clj: 'Clojure', cljs: 'Clojure',
  c: 'C', h: 'C', cc: 'C++', cpp: 'C++', cxx: 'C++', hpp: 'C++', hh: 'C++', hxx: 'C++', cs: 'C#', fs: 'F#', m: 'Objective-C', mm: 'Objective-C++',
  swift: 'Swift', rs: 'Rust', zig: 'Zig', dart: 'Dart', php: 'PHP', pl: 'Perl', pm: 'Perl', lua: 'Lua', r: 'R',
  ex: 'Elixir', exs: 'Elixir', erl: 'Erlang', hrl: 'Erlang', hs: 'Haskell', ml: 'OCaml', mli: 'OCaml', jl: 'Julia', nim: 'Nim', cr: 'Crystal',
  sh: 'Shell', bash: 'Shell', zsh: 'Shell', ksh: 'Shell', fish: 'fish', ps1: 'PowerShell', psm1: 'PowerShell', bat: 'Batchfile', cmd: 'Batchfile',
  vim: 'Vim Script', el: 'Emacs Lisp', lisp: 'Common Lisp', scm: 'Scheme', rkt: 'Racket', elm: 'Elm', purs: 'PureScript', sol: 'Solidity',
  tf: 'HCL', hcl: 'HCL', nix: 'Nix', asm: 'Assembly', s: 'Assembly', f90: 'Fortran', vb: 'Visual Basic .NET', coffee: 'CoffeeScript',
  plsql: 'PLSQL', pls: 'PLSQL',
  html: 'HTML', htm: 'HTML', xhtml: 'HTML', css: 'CSS', scss: 'SCSS', sass: 'Sass', less: 'Less', styl: 'Stylus',
  vue: 'Vue', svelte: 'Svelte', erb: 'HTML+ERB', haml: 'Haml', slim: 'Slim', hbs: 'Handlebars', mustache: 'Mustache', twig: 'Twig', jinja: 'Jinja',
  ipynb: 'Jupyter Notebook', xsl: 'XSLT', xslt: 'XSLT', tex: 'TeX',
};
const BY_NAME: Record<string, string> = {
  Makefile: 'Makefile', GNUmakefile: 'Makefile', makefile: 'Makefile', Dockerfile: 'Dockerfile', Containerfile: 'Dockerfile', Rakefile: 'Ruby', Gemfile: 'Ruby',
  Jenkinsfile: 'Groovy', 'CMakeLists.txt': 'CMake', Vagrantfile: 'Ruby', Podfile: 'Ruby', Brewfile: 'Ruby',
};

/** Files the detector leaves out: vendored code, generated bundles, documentation, dot files. */
const EXCLUDED = [
  /(^|\/)(node_modules|vendor|vendors|third[-_]?party|bower_components|Pods|Carthage|dist)\//,
  /(^|\/)\./,
  /(^|\/)(docs?|Documentation)\//i,
  /(^|\/)(README|CHANGELOG|CHANGES|LICEN[CS]E|COPYING|CONTRIBUTING|AUTHORS|NOTICE)(\.[^/]*)?$/i,
  /\.min\.(js|css)$/,
];

export function languageOf(filePath: string): string | undefined {
  if (EXCLUDED.some((re) => re.test(filePath))) return undefined;
  const name = filePath.slice(filePath.lastIndexOf('/') + 1);
  if (BY_NAME[name]) return BY_NAME[name];
  if (name.startsWith('Dockerfile.')) return 'Dockerfile';
  const dot = name.lastIndexOf('.');
  return dot > 0 ? BY_EXTENSION[name.slice(dot + 1).toLowerCase()] : undefined;
}

/** Each language's share of the bytes of the counted files, in percent with two decimals, largest first; `{}` for none. */
export function languageShares(files: { path: string; size: number }[]): Record<string, number> {
  const bytes = new Map<string, number>();
  for (const f of files) {
    const language = languageOf(f.path);
    if (language) bytes.set(language, (bytes.get(language) ?? 0) + f.size);
  }
  const total = [...bytes.values()].reduce((a, b) => a + b, 0);
  if (!total) return {};
  const shares = [...bytes].map(([language, n]) => [language, Math.round((n / total) * 10000) / 100] as const).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return Object.fromEntries(shares);
}

/** GET /projects/:id/languages: the shares of the files at `commit` (the default branch's tip). */
export async function repositoryLanguages(dir: string, commit: string): Promise<Record<string, number>> {
  const out = await gitText(dir, ['ls-tree', '-r', '-l', '-z', commit]);
  const files: { path: string; size: number }[] = [];
  for (const entry of out.split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type, , size] = entry.slice(0, tab).split(/\s+/);
    // Blobs only: no submodules, no symbolic links.
    if (type === 'blob' && mode !== '120000') files.push({ path: entry.slice(tab + 1), size: Number(size) });
  }
  return languageShares(files);
}
