import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { httpUrl } from '../../../../../shared/src/links.ts';
import { MAX_SBOM_TOOLS, sbomComponents, sbomTools } from './sbom.ts';

describe('httpUrl (what the server keeps and the console links)', () => {
  it('keeps absolute http and https URLs as they are', () => {
    for (const url of ['https://spdx.org/licenses/MIT.html', 'http://example.com', 'HTTPS://Example.com/a?b=c#d', 'https://[::1]:8443/x']) assert.equal(httpUrl(url), url);
  });
  it('refuses every other scheme, however written, relative URLs and what is not a string', () => {
    const refused = ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', ' javascript:alert(1)', '\u0000javascript:alert(1)', 'java\tscript:alert(1)', 'java\nscript:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:msgbox(1)', 'file:///etc/passwd', 'ftp://example.com/x', '//evil.example/x', '/relative', 'https://', 'https:// space', 'http:\\\\evil.example', '', null, undefined, 42, {}];
    for (const url of refused) assert.equal(httpUrl(url), null, JSON.stringify(url));
  });
});

describe('sbomComponents: license URLs', () => {
  const licenseUrl = (license: Record<string, unknown>) => JSON.parse(sbomComponents({ components: [{ type: 'library', name: 'x', licenses: [{ license }] }] })[0].licenses)[0].url;
  it('keeps an http(s) URL, drops any other (SPDX’s page where the license has an id)', () => {
    assert.equal(licenseUrl({ name: 'Own', url: 'https://licenses.example/own' }), 'https://licenses.example/own');
    assert.equal(licenseUrl({ name: 'Own', url: 'javascript:alert(1)' }), null);
    assert.equal(licenseUrl({ id: 'MIT', url: 'javascript:alert(1)' }), 'https://spdx.org/licenses/MIT.html');
    assert.equal(licenseUrl({ id: 'MIT' }), 'https://spdx.org/licenses/MIT.html');
  });
});

describe('sbomTools: the tools an SBOM names', () => {
  it('reads the legacy list (1.4) as components whose group is the vendor', () => {
    assert.deepEqual(sbomTools({ metadata: { tools: [{ vendor: 'GitLab', name: 'Gemnasium', version: '5.0.0' }, { name: 'bare' }, { vendor: 'X' }] } }), [
      { kind: 'component', type: 'application', group: 'GitLab', name: 'Gemnasium', version: '5.0.0' },
      { kind: 'component', type: 'application', group: null, name: 'bare', version: null },
    ]);
  });
  it('reads components and services (1.5+), each tool once, at most a bounded number', () => {
    const tools = {
      components: [
        { type: 'library', group: 'Aqua Security', name: 'Trivy', version: '0.50.0' },
        { type: 'application', group: 'Aqua Security', name: 'Trivy', version: '0.50.0' },
        ...Array.from({ length: MAX_SBOM_TOOLS + 10 }, (_, i) => ({ type: 'application', name: `t${i}` })),
      ],
      services: [{ group: 'Acme', name: 'SBOM service', version: '2' }],
    };
    const read = sbomTools({ metadata: { tools } });
    assert.equal(read.length, MAX_SBOM_TOOLS);
    assert.deepEqual(read[0], { kind: 'component', type: 'library', group: 'Aqua Security', name: 'Trivy', version: '0.50.0' });
    assert.equal(read[1].name, 't0');
    assert.deepEqual(sbomTools({ metadata: { tools: { services: tools.services } } }), [{ kind: 'service', group: 'Acme', name: 'SBOM service', version: '2' }]);
  });
  it('is empty without tools', () => {
    assert.deepEqual(sbomTools({}), []);
    assert.deepEqual(sbomTools({ metadata: { tools: 'nonsense' } }), []);
  });
});
