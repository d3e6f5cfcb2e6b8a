import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const optionalNonEmpty = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));

/**
 * An address range as `address/prefix` (a bare address is one host), normalised; an error
 * message when it is not one.
 */
export function parseCidr(text: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | string {
  const [address, prefixText, ...rest] = text.split('/');
  const version = net.isIP(address);
  if (!version || rest.length) return `${JSON.stringify(text)} is not an IP address or an address/prefix range`;
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= max)) return `${JSON.stringify(text)} has a prefix length outside 0-${max}`;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

const cidrList = z.string().transform((text, ctx) => {
  const entries = text.split(/[\s,]+/).filter(Boolean);
  const ranges = entries.map(parseCidr);
  for (const r of ranges) if (typeof r === 'string') ctx.addIssue({ code: 'custom', message: `${r}; give a comma-separated list such as 127.0.0.0/8,::1/128` });
  return ranges.filter((r) => typeof r !== 'string').map((r) => `${r.address}/${r.prefix}`);
});

const envSchema = z.object({
  PORT: z
    .string()
    .default('8080')
    .pipe(z.string().regex(/^\d+$/, 'must be a port number').transform(Number).pipe(z.number().max(65535, 'must be a port number'))),
  HOST: z.string().default('0.0.0.0'),
  GATEHOUSE_DATA_DIR: z.string().default('./data'),
  GATEHOUSE_REPOSITORIES_DIR: optionalNonEmpty,
  DATABASE_URL: optionalNonEmpty.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  GATEHOUSE_EXTERNAL_URL: optionalNonEmpty.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
  GATEHOUSE_ROOT_PASSWORD: optionalNonEmpty.pipe(z.string().min(8, 'must be at least 8 characters').optional()),
  GATEHOUSE_ROOT_TOKEN: optionalNonEmpty.pipe(
    z
      .string()
      .min(20, 'must be at least 20 characters')
      .max(255)
      .regex(/^[A-Za-z0-9_.-]+$/, 'may contain only letters, digits, "_", "-" and "."')
      .optional(),
  ),
  GATEHOUSE_SECRET_KEY: optionalNonEmpty.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  GATEHOUSE_HOOK_TIMEOUT_SECONDS: z.string().default('10').pipe(z.string().regex(/^\d+(\.\d+)?$/, 'must be a number of seconds').transform(Number).pipe(z.number().positive().max(120))),
  GATEHOUSE_HOOK_LOG_RETENTION_DAYS: z.string().default('7').pipe(z.string().regex(/^[1-9]\d*$/, 'must be a positive whole number').transform(Number)),
  GATEHOUSE_WORKERS: z.string().default('4').pipe(z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().max(64))),
  GATEHOUSE_DEMO: z.enum(['0', '1', 'true', 'false'], { error: 'must be 0 or 1' }).default('1'),
  GATEHOUSE_SESSION_HOURS: z.string().default('12').pipe(z.string().regex(/^\d+(\.\d+)?$/, 'must be a number of hours').transform(Number).pipe(z.number().positive().max(24 * 30))),
  GATEHOUSE_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  GATEHOUSE_SMTP_URL: optionalNonEmpty.pipe(z.string().regex(/^smtps?:\/\/[^/]+/, 'must be an smtp:// or smtps:// URL').optional()),
  GATEHOUSE_SMTP_FROM: z.string().default('Gatehouse <gatehouse@localhost>'),
  GATEHOUSE_VULNERABILITIES_PDF_EXPORT: z.enum(['0', '1', 'true', 'false'], { error: 'must be 0 or 1' }).default('0'),
  GATEHOUSE_TEST_TRAIN_PAUSE_MS: z.string().default('0').pipe(z.string().regex(/^\d+$/, 'must be a whole number of milliseconds').transform(Number).pipe(z.number().max(60_000))),
  GATEHOUSE_MONITORING_ALLOWLIST: z.string().default('127.0.0.0/8,::1/128').pipe(cidrList),
  GATEHOUSE_TRUSTED_PROXIES: z.string().default('').pipe(cidrList),
  GATEHOUSE_IMPORT_MAX_BYTES: z.string().default(String(10 * 1024 ** 3)).pipe(z.string().regex(/^[1-9]\d*$/, 'must be a positive whole number of bytes').transform(Number)),
  GATEHOUSE_IMPORT_MAX_LINE_BYTES: z.string().default(String(64 * 1024 ** 2)).pipe(z.string().regex(/^[1-9]\d*$/, 'must be a positive whole number of bytes').transform(Number)),
  GATEHOUSE_ERROR_TRACKING_EVENTS_PER_MINUTE: z.string().default('60000').pipe(z.string().regex(/^[1-9]\d*$/, 'must be a positive whole number').transform(Number)),
  GATEHOUSE_REGISTRY_URL: optionalNonEmpty.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
  GATEHOUSE_REGISTRY_KEY: optionalNonEmpty,
  GATEHOUSE_REGISTRY_ISSUER: optionalNonEmpty,
  GATEHOUSE_VIRTUAL_REGISTRY_MAX_FILE_BYTES: z.string().default(String(5 * 1024 ** 3)).pipe(z.string().regex(/^[1-9]\d*$/, 'must be a positive whole number of bytes').transform(Number)),
  GATEHOUSE_VIRTUAL_REGISTRY_TIMEOUT_SECONDS: z.string().default('30').pipe(z.string().regex(/^\d+(\.\d+)?$/, 'must be a number of seconds').transform(Number).pipe(z.number().positive().max(600))),
  GATEHOUSE_AI_GATEWAY_URL: optionalNonEmpty.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
  GATEHOUSE_AI_GATEWAY_TIMEOUT_SECONDS: z.string().default('55').pipe(z.string().regex(/^\d+(\.\d+)?$/, 'must be a number of seconds').transform(Number).pipe(z.number().positive().max(600))),
  GATEHOUSE_CODE_SUGGESTIONS_PER_MINUTE: z.string().default('60').pipe(z.string().regex(/^[1-9]\d*$/, 'must be a positive whole number').transform(Number)),
  GATEHOUSE_SIGNIN_MAX_FAILURES: z.string().default('10').pipe(z.string().regex(/^[1-9]\d*$/, 'must be a positive whole number').transform(Number)),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Where the projects' bare git repositories live (one per project, named by its id). */
  repositoriesDir: string;
  databaseUrl: string | undefined;
  externalUrl: string | undefined;
  rootPassword: string | undefined;
  rootToken: string | undefined;
  demo: boolean;
  sessionHours: number;
  logLevel: string;
  signInMaxFailures: number;
  secretKey: string | undefined;
  hookTimeoutMs: number;
  hookLogRetentionDays: number;
  /** Concurrent job workers in this process; 0 runs none (another instance does the work). */
  workers: number;
  /** Outbound mail (export-ready emails); none is sent when unset. */
  smtpUrl: string | undefined;
  smtpFrom: string;
  /** The default of the vulnerabilities_pdf_export feature flag (PDF vulnerability exports) while the Features API has not set it. */
  vulnerabilitiesPdfExport: boolean;
  /**
   * Who may read /-/health, /-/liveness, /-/readiness and /-/metrics: address ranges
   * (`address/prefix`) matched against the connection's address; anyone else gets a 404.
   */
  monitoringAllowlist: string[];
  /**
   * The reverse proxies in front of this instance (`address/prefix` ranges): a request from one
   * is taken to come from the address its `X-Forwarded-For` names (and by the scheme of
   * `X-Forwarded-Proto`), so that limits per address (sign-in failures) apply per client rather
   * than to everyone behind the proxy. Empty (the default): forwarded headers are ignored.
   */
  trustedProxies: string[];
  /**
   * Group import archives: the most their files may hold once decompressed, in all (the
   * platform's default maximum decompressed archive size, 10 GiB), and the longest ndjson line.
   */
  importLimits: { maxBytes: number; maxLineBytes: number };
  /** What one error tracking client key may send: envelopes (or store bodies) per minute, past which the collector answers 429. */
  errorTrackingEventsPerMinute: number;
  /**
   * The container registry Gatehouse is the token service of (`/jwt/auth`): its URL (shown to
   * users, and read for its repositories and tags), the PEM RSA private key the tokens are signed
   * with (the registry trusts its certificate) and the tokens' issuer. Unset: no registry is
   * connected (protection rules can still be kept).
   */
  registry: { url: string; keyPath: string; issuer: string } | undefined;
  /**
   * Virtual registries' pull-through: the largest file it fetches from an upstream (the
   * platform's 5 GiB by default), and how long an upstream may keep it waiting (to connect, for
   * the headers, between two pieces of a body) before it is given up as stalled.
   */
  virtualRegistry: { maxFileBytes: number; timeoutMs: number };
  /**
   * The AI gateway code completions are proxied to (`/code_suggestions/*`): its URL, and how long
   * it may keep a completion waiting (to connect, for the headers, between two pieces of a
   * streamed answer). Unset: code suggestions are not available.
   */
  aiGateway: { url: string; timeoutMs: number } | undefined;
  /** Code completion requests one user may make per minute (the platform's 60), past which 429. */
  codeSuggestionsPerMinute: number;
  /**
   * Tests of crash recovery only: a train run waits this long after moving a target branch and
   * before recording the merge, so that a test can kill the process exactly there. 0 in use.
   */
  trainPauseMs?: number;
}

export class ConfigError extends Error {}

/** Reads and validates the environment; a bad value stops the start with a message naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message} (got ${JSON.stringify(env[String(i.path[0])])})`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (Boolean(e.GATEHOUSE_REGISTRY_URL) !== Boolean(e.GATEHOUSE_REGISTRY_KEY)) {
    throw new ConfigError('Invalid configuration:\n  GATEHOUSE_REGISTRY_URL and GATEHOUSE_REGISTRY_KEY go together: the registry\'s URL and the path of the PEM RSA private key its tokens are signed with');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.GATEHOUSE_DATA_DIR),
    repositoriesDir: path.resolve(e.GATEHOUSE_REPOSITORIES_DIR ?? path.join(e.GATEHOUSE_DATA_DIR, 'repositories')),
    databaseUrl: e.DATABASE_URL,
    externalUrl: e.GATEHOUSE_EXTERNAL_URL?.replace(/\/+$/, ''),
    rootPassword: e.GATEHOUSE_ROOT_PASSWORD,
    rootToken: e.GATEHOUSE_ROOT_TOKEN,
    demo: e.GATEHOUSE_DEMO === '1' || e.GATEHOUSE_DEMO === 'true',
    sessionHours: e.GATEHOUSE_SESSION_HOURS,
    logLevel: e.GATEHOUSE_LOG_LEVEL,
    signInMaxFailures: e.GATEHOUSE_SIGNIN_MAX_FAILURES,
    secretKey: e.GATEHOUSE_SECRET_KEY,
    hookTimeoutMs: e.GATEHOUSE_HOOK_TIMEOUT_SECONDS * 1000,
    hookLogRetentionDays: e.GATEHOUSE_HOOK_LOG_RETENTION_DAYS,
    workers: e.GATEHOUSE_WORKERS,
    smtpUrl: e.GATEHOUSE_SMTP_URL,
    smtpFrom: e.GATEHOUSE_SMTP_FROM,
    vulnerabilitiesPdfExport: e.GATEHOUSE_VULNERABILITIES_PDF_EXPORT === '1' || e.GATEHOUSE_VULNERABILITIES_PDF_EXPORT === 'true',
    trainPauseMs: e.GATEHOUSE_TEST_TRAIN_PAUSE_MS,
    monitoringAllowlist: e.GATEHOUSE_MONITORING_ALLOWLIST,
    trustedProxies: e.GATEHOUSE_TRUSTED_PROXIES,
    importLimits: { maxBytes: e.GATEHOUSE_IMPORT_MAX_BYTES, maxLineBytes: e.GATEHOUSE_IMPORT_MAX_LINE_BYTES },
    errorTrackingEventsPerMinute: e.GATEHOUSE_ERROR_TRACKING_EVENTS_PER_MINUTE,
    virtualRegistry: { maxFileBytes: e.GATEHOUSE_VIRTUAL_REGISTRY_MAX_FILE_BYTES, timeoutMs: e.GATEHOUSE_VIRTUAL_REGISTRY_TIMEOUT_SECONDS * 1000 },
    aiGateway: e.GATEHOUSE_AI_GATEWAY_URL ? { url: e.GATEHOUSE_AI_GATEWAY_URL.replace(/\/+$/, ''), timeoutMs: e.GATEHOUSE_AI_GATEWAY_TIMEOUT_SECONDS * 1000 } : undefined,
    codeSuggestionsPerMinute: e.GATEHOUSE_CODE_SUGGESTIONS_PER_MINUTE,
    registry:
      e.GATEHOUSE_REGISTRY_URL && e.GATEHOUSE_REGISTRY_KEY
        ? { url: e.GATEHOUSE_REGISTRY_URL.replace(/\/+$/, ''), keyPath: path.resolve(e.GATEHOUSE_REGISTRY_KEY), issuer: e.GATEHOUSE_REGISTRY_ISSUER ?? 'gatehouse-issuer' }
        : undefined,
  };
}
