import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { httpUrl } from '../../../shared/src/links.ts';
import { sbomComponents } from './sbom.ts';

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
