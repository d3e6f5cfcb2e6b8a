import { ConfigError, loadConfig } from './config.ts';
import { startServer } from './server.ts';
import { gitVersion } from './services/git/repositories.ts';

/** `npm start`: validate the configuration, start, and tell a newcomer how to sign in. */
async function main() {
  let config;
  let running;
  try {
    config = loadConfig();
    // Refused at start too: a repositories directory or secret key that is not the installation's.
    running = await startServer(config);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  const lines = ['', `Gatehouse is running at ${running.url}`, `  API:      ${running.url}/api/v4  (OpenAPI: ${running.url}/api/v4/openapi.json)`];
  lines.push(`  Database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `SQLite in ${config.dataDir}`}`);
  const git = await gitVersion();
  lines.push(
    git instanceof Error
      ? `  Git:      NOT AVAILABLE - clone and push will fail: ${git.message}`
      : `  Git:      ${running.url}/<group>/<project>.git (${git}; repositories in ${config.repositoriesDir})`,
  );
  if (running.bootstrap.created) {
    if (running.bootstrap.generatedPassword) {
      lines.push(`  Sign in as root with password: ${running.bootstrap.generatedPassword}`);
      if (running.bootstrap.passwordFile) lines.push(`  (also saved to ${running.bootstrap.passwordFile}; it is shown only this once)`);
    } else {
      lines.push('  Sign in as root with the password from GATEHOUSE_ROOT_PASSWORD.');
    }
    if (config.rootToken) lines.push('  API token: the value of GATEHOUSE_ROOT_TOKEN (scope api).');
    if (running.demo) lines.push(`  Demo users alice (Owner of acme), bob, carol, dave, erin, frank sign in with password: ${running.demo.password}`);
  } else {
    lines.push('  Sign in as root (the password printed at the first start, or GATEHOUSE_ROOT_PASSWORD).');
  }
  console.log(lines.join('\n') + '\n');
  const stop = async () => {
    await running.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
