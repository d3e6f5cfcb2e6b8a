// Runs on SQLite only: the pull-through's reads and writes run on both engines in bff/src/api/virtual-registries.test.ts; this adds the real Maven client, whose JVM costs seconds of CPU a run
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildGroup, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from './harness.ts';
import { startMavenUpstream, type MavenUpstream } from './maven-upstream.ts';

const run = promisify(execFile);

/**
 * Debian's Maven resolving a build's artifact through a virtual registry, as a user's
 * settings.xml points it: a mirror of everything at the pull-through, a Guest's token as the
 * password. The upstream is another system: Debian's own Maven repository
 * (/usr/share/maven-repo) served on loopback behind Basic auth. The build is a POM with one build
 * extension (plexus-utils: a POM and a JAR) that Maven must fetch before it can do anything, and
 * which needs no plugin, none of which the Debian repository holds (any other extension would
 * make Maven add plexus-utils 1.1, which it does not hold either; Debian's parent POMs name
 * plugins without versions). Then again, into a fresh local repository, with the upstream
 * stopped: from Gatehouse's cache alone. Two JVM starts in all.
 */
const DEBIAN_REPO = '/usr/share/maven-repo';
const UP = { username: 'mirror-bot', password: 'upstream-secret-for-maven' };
const WANTED = ['org/codehaus/plexus/plexus-utils/3.4.2/plexus-utils-3.4.2.pom', 'org/codehaus/plexus/plexus-utils/3.4.2/plexus-utils-3.4.2.jar'];

let server: TestServer;
let upstream: MavenUpstream;
let work: string;
let registryId: number;
let member: Awaited<ReturnType<typeof userWithRole>>;

const POM = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example.gatehouse</groupId>
  <artifactId>resolves-through-gatehouse</artifactId>
  <version>1.0</version>
  <packaging>pom</packaging>
  <build>
    <extensions>
      <extension><groupId>org.codehaus.plexus</groupId><artifactId>plexus-utils</artifactId><version>3.4.2</version></extension>
    </extensions>
  </build>
</project>
`;

/** Maven's settings: every repository mirrored by the registry, the member's token as the password, its own local repository. */
function settings(localRepository: string): string {
  const file = path.join(work, `settings-${path.basename(localRepository)}.xml`);
  fs.writeFileSync(
    file,
    `<settings>
  <localRepository>${localRepository}</localRepository>
  <mirrors><mirror><id>gatehouse</id><mirrorOf>*</mirrorOf><url>${server.url}/api/v4/virtual_registries/packages/maven/${registryId}</url></mirror></mirrors>
  <servers><server><id>gatehouse</id><username>${member.user.username}</username><password>${member.token}</password></server></servers>
</settings>
`,
  );
  return file;
}

/** One Maven run (`validate`: the model built and its extension resolved), with a cheap JVM. */
async function mvn(localRepository: string): Promise<void> {
  const env = { ...process.env, HOME: work, MAVEN_OPTS: '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto' };
  try {
    await run('mvn', ['-B', '-q', '-s', settings(localRepository), '-f', path.join(work, 'pom.xml'), 'validate'], { env, timeout: 120_000 });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    assert.fail(`mvn failed: ${err.message}\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
  }
  for (const file of WANTED) assert.ok(fs.existsSync(path.join(localRepository, file)), `${file} resolved into ${localRepository}`);
}

before(async () => {
  server = await startTestServer();
  upstream = await startMavenUpstream({ root: DEBIAN_REPO, ...UP });
  expectStatus(await api('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } }), 200);
  const group = await buildGroup();
  member = await userWithRole(group.id, 10);
  const registry = await api(`/groups/${group.id}/-/virtual_registries/packages/maven/registries`, { method: 'POST', json: { name: 'debian' } });
  expectStatus(registry, 201);
  registryId = registry.body.id;
  expectStatus(await api(`/virtual_registries/packages/maven/registries/${registryId}/upstreams`, { method: 'POST', json: { url: `${upstream.url}/maven`, ...UP } }), 201);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-maven-'));
  fs.writeFileSync(path.join(work, 'pom.xml'), POM);
});
after(async () => {
  await upstream.close();
  await server.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('Maven resolving through GET /api/v4/virtual_registries/packages/maven/:id/*path', () => {
  it('resolves a POM and a JAR from the upstream, then from the cache alone with the upstream stopped; the member’s token never reaches the upstream', async () => {
    await mvn(path.join(work, 'repository-1'));
    for (const file of WANTED) assert.equal(upstream.fetches(`/maven/${file}`), 1, `${file} fetched once from the upstream`);
    assert.ok(!JSON.stringify(upstream.received.map((r) => r.headers)).includes(member.token), 'the member’s token never reached the upstream');
    await upstream.close();
    await mvn(path.join(work, 'repository-2'));
  });
});
