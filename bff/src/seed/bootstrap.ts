import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/index.ts';
import type { Config } from '../config.ts';
import { randomPassword } from '../auth/secrets.ts';
import { createUser, findUserByUsername } from '../services/access/users.ts';
import { createPersonalAccessToken } from '../services/access/personal-access-tokens.ts';

export interface BootstrapResult {
  /** True when this start created the administrator (a fresh installation). */
  created: boolean;
  /** The generated password, when none was configured; shown once. */
  generatedPassword?: string;
  passwordFile?: string;
}

/**
 * First start: creates the administrator `root`, like a fresh install of the platform. The
 * password comes from GATEHOUSE_ROOT_PASSWORD or is generated, printed once and written to
 * a file only the owner can read; GATEHOUSE_ROOT_TOKEN becomes an `api` token with exactly
 * that value.
 */
export async function bootstrap(db: Db, config: Config): Promise<BootstrapResult> {
  if (await findUserByUsername(db, 'root')) return { created: false };
  const generatedPassword = config.rootPassword ? undefined : randomPassword();
  let root;
  try {
    root = await createUser(db, {
      username: 'root',
      name: 'Administrator',
      email: 'admin@example.com',
      password: config.rootPassword ?? generatedPassword,
      admin: true,
    });
  } catch (e) {
    // Instances started at once on a new database: another one created root first (its commit
    // met by our check of the name, or by the unique index).
    if (await findUserByUsername(db, 'root')) return { created: false };
    throw e;
  }
  if (config.rootToken) {
    await createPersonalAccessToken(db, root.id, { name: 'Initial root token', scopes: ['api'] }, { plaintext: config.rootToken });
  }
  let passwordFile: string | undefined;
  if (generatedPassword && !config.databaseUrl) {
    passwordFile = path.join(config.dataDir, 'initial_root_password');
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(passwordFile, `# Delete this file once you have signed in and changed the password.\nPassword: ${generatedPassword}\n`, { mode: 0o600 });
  }
  return { created: true, generatedPassword, passwordFile };
}
