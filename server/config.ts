import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { S3StorageOptions } from './storage/s3-storage';

// The server runs from source (server/) in development and from dist/server/ once built;
// both find the built web app in <repo>/dist/web.
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.basename(path.dirname(here)) === 'dist' ? path.resolve(here, '../..') : path.resolve(here, '..');

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'debe ser una dirección http(s) completa, p. ej. https://corto.example' })
  .transform((value) => value.replace(/\/+$/, ''));

const postgresUrl = z.url({
  protocol: /^postgres(ql)?$/,
  error: 'debe ser una cadena de conexión postgres://usuario@servidor:puerto/base',
});

// Fastify's trustProxy: true/false, a hop count, or a comma-separated list of addresses.
const trustProxy = z
  .string()
  .trim()
  .transform((value): boolean | number | string[] => {
    if (value === 'true') return true;
    if (value === 'false' || value === '') return false;
    if (/^\d+$/.test(value)) return Number(value);
    return value.split(',').map((part) => part.trim()).filter(Boolean);
  });

const envSchema = z.object({
  PORT: z.coerce.number({ error: 'debe ser un número de puerto' }).int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  PUBLIC_BASE_URL: httpUrl.optional(),
  DATABASE_URL: postgresUrl.optional(),
  TRUST_PROXY: trustProxy.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'debe ser una dirección redis://servidor:puerto' }).optional(),
  LINK_CACHE_SIZE: z.coerce.number({ error: 'debe ser un número' }).int().min(1).default(100_000),
  LIVE_FEED_HEARTBEAT_MS: z.coerce.number({ error: 'debe ser un número de milisegundos' }).int().min(100).max(60_000).default(15_000),
  CLICK_FLUSH_MS: z.coerce.number({ error: 'debe ser un número de milisegundos' }).int().min(10).max(5000).default(100),
  // How long an instance holds the webhook deliveries it claimed before another may send them (a crashed one's).
  WEBHOOK_LEASE_SECONDS: z.coerce.number({ error: 'debe ser un número de segundos' }).int().min(2).max(3600).default(60),
  CLICK_QUEUE_LIMIT: z.coerce.number({ error: 'debe ser un número' }).int().min(1000).default(200_000),
  AUTH_RATE_LIMIT_IP: z.coerce.number({ error: 'debe ser un número (0 = sin límite)' }).int().min(0).default(30),
  AUTH_RATE_LIMIT_EMAIL: z.coerce.number({ error: 'debe ser un número (0 = sin límite)' }).int().min(0).default(10),
  API_DEADLINE_MS: z.coerce.number({ error: 'debe ser un número de milisegundos (0 = sin plazo)' }).int().min(0).default(10_000),
  REDIRECT_MISS_LIMIT: z.coerce.number({ error: 'debe ser un número de direcciones desconocidas por minuto (0 = sin límite)' }).int().min(0).default(30),
  API_RATE_LIMIT: z.coerce.number({ error: 'debe ser un número de peticiones por minuto y token (0 = sin límite)' }).int().min(0).default(600),
  LINKS_PER_HOUR: z.coerce.number({ error: 'debe ser un número de links por hora (0 = sin límite)' }).int().min(0).default(200),
  ALLOW_PRIVATE_DESTINATIONS: z
    .enum(['true', 'false'], { error: 'debe ser true o false' })
    .default('false')
    .transform((value) => value === 'true'),
  ADMIN_EMAILS: z
    .string()
    .transform((value) => value.split(',').map((part) => part.trim().toLowerCase()).filter(Boolean))
    .default([]),
  ADDRESS_HOLD_DAYS: z.coerce.number({ error: 'debe ser un número de días (0 = sin reserva)' }).int().min(0).max(3650).default(30),
  DOMAINS_PER_WORKSPACE: z.coerce.number({ error: 'debe ser un número de dominios por espacio (0 = sin dominios propios)' }).int().min(0).max(1000).default(10),
  DNS_SERVERS: z
    .string()
    .transform((value) => value.split(',').map((part) => part.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^(\[[0-9a-fA-F:.]+\]|[0-9.]+|[0-9a-fA-F:]+)(:\d{1,5})?$/, { error: 'debe ser una lista de direcciones IP de servidores DNS, con puerto opcional (1.1.1.1,127.0.0.1:5353)' })))
    .optional(),
  REPORTS_PER_HOUR: z.coerce.number({ error: 'debe ser un número de denuncias por hora (0 = sin límite)' }).int().min(0).default(10),
  SIGNUP: z.enum(['open', 'invite', 'closed'], { error: 'debe ser open, invite o closed' }).optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'debe ser una dirección smtp://usuario:clave@servidor:puerto (o smtps://)' }).optional(),
  MAIL_FROM: z.string().trim().min(3, { error: 'debe ser un remitente, p. ej. "Corto <no-reply@ejemplo.com>"' }).optional(),
  CLICK_RETENTION_DAYS: z.coerce.number({ error: 'debe ser un número de días' }).int().min(1, 'debe ser al menos 1 día').optional(),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number({ error: 'debe ser un número de milisegundos (0 = sin límite)' }).int().min(0).default(300_000),
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number({ error: 'debe ser un número de milisegundos (0 = sin límite)' }).int().min(0).default(30_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number({ error: 'debe ser un número de milisegundos' }).int().min(1).default(72_000),
  METRICS_TOKEN: z.string().trim().min(16, { error: 'debe tener al menos 16 caracteres' }).optional(),
  S3_ENDPOINT: httpUrl.optional(),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_BUCKET: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: 'debe ser un nombre de bucket S3 (3 a 63 minúsculas, cifras, puntos o guiones)' })
    .optional(),
  S3_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().trim().min(1).optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'], { error: 'debe ser true o false' })
    .default('false')
    .transform((value) => value === 'true'),
  // Kept as written: openid-client compares it with the issuer the provider names, slash included (Authentik's ends in /).
  OIDC_ISSUER: z.url({ protocol: /^https?$/, error: 'debe ser la dirección http(s) completa del emisor, p. ej. https://sso.example/realms/empresa' }).optional(),
  OIDC_CLIENT_ID: z.string().trim().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().trim().min(1).optional(),
  OIDC_LABEL: z.string().trim().min(1).max(60, { error: 'no puede superar los 60 caracteres' }).optional(),
  OIDC_ADMIN_GROUP: z.string().trim().min(1).optional(),
  OIDC_TIMEOUT_MS: z.coerce.number({ error: 'debe ser un número de milisegundos' }).int().min(100).max(120_000).default(10_000),
  OIDC_SIGNUP: z
    .enum(['true', 'false'], { error: 'debe ser true o false' })
    .default('true')
    .transform((value) => value === 'true'),
  PASSWORD_LOGIN: z
    .enum(['true', 'false'], { error: 'debe ser true o false' })
    .default('true')
    .transform((value) => value === 'true'),
}).refine((vars) => vars.S3_BUCKET || !(vars.S3_ENDPOINT || vars.S3_ACCESS_KEY_ID || vars.S3_SECRET_ACCESS_KEY), {
  // A half-made S3 configuration would otherwise store files on the local disk without a word.
  path: ['S3_BUCKET'],
  error: 'es obligatorio cuando se configura S3 (S3_ENDPOINT o las claves)',
}).refine((vars) => Boolean(vars.S3_ACCESS_KEY_ID) === Boolean(vars.S3_SECRET_ACCESS_KEY), {
  path: ['S3_SECRET_ACCESS_KEY'],
  error: 'S3_ACCESS_KEY_ID y S3_SECRET_ACCESS_KEY van juntas',
}).refine((vars) => vars.HTTP_REQUEST_TIMEOUT_MS === 0 || vars.HTTP_HEADERS_TIMEOUT_MS <= vars.HTTP_REQUEST_TIMEOUT_MS, {
  // Node refuses to start otherwise: the headers are part of the request.
  path: ['HTTP_HEADERS_TIMEOUT_MS'],
  error: 'no puede ser mayor que HTTP_REQUEST_TIMEOUT_MS',
// Sign-in with the company's provider: half a configuration names the piece missing.
}).refine((vars) => !vars.OIDC_ISSUER || vars.OIDC_CLIENT_ID, {
  path: ['OIDC_CLIENT_ID'],
  error: 'es obligatoria cuando se configura OIDC_ISSUER',
}).refine((vars) => !vars.OIDC_ISSUER || vars.OIDC_CLIENT_SECRET, {
  path: ['OIDC_CLIENT_SECRET'],
  error: 'es obligatoria cuando se configura OIDC_ISSUER',
}).refine((vars) => vars.OIDC_ISSUER || !(vars.OIDC_CLIENT_ID || vars.OIDC_CLIENT_SECRET || vars.OIDC_LABEL || vars.OIDC_ADMIN_GROUP), {
  path: ['OIDC_ISSUER'],
  error: 'es obligatoria cuando se configura OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_LABEL u OIDC_ADMIN_GROUP',
}).refine((vars) => vars.PASSWORD_LOGIN || vars.OIDC_ISSUER, {
  // Nobody could sign in at all.
  path: ['PASSWORD_LOGIN'],
  error: 'solo puede ser false cuando se configura OIDC_ISSUER (si no, nadie podría entrar)',
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicBaseUrl: string;
  /** PUBLIC_BASE_URL was given: without it links and QR codes name http://localhost, fine only on this machine. */
  publicBaseUrlSet: boolean;
  databaseUrl: string | undefined;
  trustProxy: boolean | number | string[];
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** Shares link deletions between instances; unset with a single instance. */
  redisUrl: string | undefined;
  /** Links kept in each instance's redirect cache. */
  linkCacheSize: number;
  /** How often queued clicks are written: the most a crash can lose. */
  clickFlushMs: number;
  /** The live feed's comment line, and its check that the caller may still watch, every this long. */
  liveFeedHeartbeatMs: number;
  /** WEBHOOK_LEASE_SECONDS, in ms. */
  webhookLeaseMs: number;
  /** Clicks held in memory while the database is away; beyond it new ones are shed (and logged). */
  clickQueueLimit: number;
  /** Login and registration attempts per client (IPv4 address or IPv6 /64) per minute; 0 turns the limit off. */
  authRateLimitPerIp: number;
  /**
   * Failed logins per account and client per 15 minutes (and sign-ups per e-mail and client); twice
   * as many failures on one account from clients it does not know slow those clients down. 0 = off.
   */
  authRateLimitPerEmail: number;
  /** An API call unanswered this long after its body was read gets a 503 (a silent database); 0 = never. */
  apiDeadlineMs: number;
  /** Unknown short addresses one client (an IPv4 address, an IPv6 /64) may ask for per minute; 0 = no limit. */
  redirectMissLimit: number;
  /** Requests one API token may make per minute (shared by every instance through Redis); 0 = no limit. */
  apiRateLimit: number;
  /** Links one account may create per hour; 0 = no limit. */
  linksPerHour: number;
  /** Destinations on loopback, private or link-local addresses, or on this instance, are allowed (an intranet). */
  allowPrivateDestinations: boolean;
  /**
   * Node's HTTP timeouts: a request (headers and body) must be whole within requestTimeoutMs, its
   * headers within headersTimeoutMs (else 408 and the connection closed); an idle kept-alive
   * connection is closed after keepAliveTimeoutMs. 0 turns the first two off.
   */
  /** ADMIN_EMAILS, lowercase: an account whose verified address is listed is made admin, once (admin/admin-emails.ts). */
  adminEmails: string[];
  /** Abuse reports one client may send per hour; 0 = no limit. */
  reportsPerHour: number;
  /** Days a deleted link's addresses stay held, so nobody else takes them at once; 0 = free at once. */
  addressHoldDays: number;
  /** Custom domains one workspace may add; 0 turns custom domains off. */
  domainsPerWorkspace: number;
  /** DNS_SERVERS: who answers the domains' TXT lookups; undefined = the system's resolver. */
  dnsServers: string[] | undefined;
  /** SIGNUP: open, invite or closed; when set it wins over the setting in /admin/ajustes. */
  signup: 'open' | 'invite' | 'closed' | undefined;
  http: { requestTimeoutMs: number; headersTimeoutMs: number; keepAliveTimeoutMs: number };
  /** Where mail (password-reset links) is sent through; without it the reset link is the operator's (CLI). */
  smtpUrl: string | undefined;
  /** The From of Corto's mail. */
  mailFrom: string;
  /** Days of raw clicks `corto prune` keeps (roll-ups are kept forever); unset: prune refuses to run. */
  clickRetentionDays: number | undefined;
  /** GET /metrics asks for `Authorization: Bearer <it>` when set; open otherwise. */
  metricsToken: string | undefined;
  /** An S3-compatible bucket for QR codes and pictures (S3_BUCKET set); undefined: DATA_DIR/storage. */
  s3: S3StorageOptions | undefined;
  /** Sign-in with the company's provider (OIDC_ISSUER set); undefined: off. */
  oidc: OidcConfig | undefined;
  /** PASSWORD_LOGIN: sign-in, sign-up and reset by password (false: only the provider; the CLI's reset-link stays). */
  passwordLogin: boolean;
  /** Where the built web app lives; absent in API-only tests. */
  webDir: string | undefined;
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The button reads 'Entrar con {label}'. */
  label: string;
  /** A value of the `groups` claim that makes an admin (and whose absence unmakes one) at each sign-in. */
  adminGroup: string | undefined;
  /** OIDC_SIGNUP: the provider's users get an account at their first sign-in. */
  signup: boolean;
  /** OIDC_TIMEOUT_MS: how long each request to the provider (discovery, token, userinfo) may take. */
  timeoutMs: number;
}

export class ConfigError extends Error {}

/**
 * The secrets that may come from a file instead (`DATABASE_URL_FILE=/run/secrets/db`): Docker's
 * and Kubernetes' secrets are files, and a variable's value shows in `docker inspect` and in
 * /proc/<pid>/environ.
 */
export const SECRET_FILE_VARIABLES = [
  'DATABASE_URL',
  'REDIS_URL',
  'SMTP_URL',
  'METRICS_TOKEN',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'OIDC_CLIENT_SECRET',
] as const;

/** Each `<NAME>_FILE` replaced by `<NAME>`, read from its file; the problems, never the contents. */
function withSecretFiles(present: Record<string, string | undefined>): { vars: Record<string, string | undefined>; problems: string[] } {
  const vars = { ...present };
  const problems: string[] = [];
  for (const name of SECRET_FILE_VARIABLES) {
    const file = vars[`${name}_FILE`];
    delete vars[`${name}_FILE`];
    if (file === undefined) continue;
    if (vars[name] !== undefined) {
      problems.push(`  ${name}_FILE: ${name} ya está definida; usa una de las dos`);
      continue;
    }
    let content: string;
    try {
      content = readFileSync(file, 'utf8');
    } catch (error) {
      problems.push(`  ${name}_FILE: no se puede leer ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      continue;
    }
    // The newline an editor or `echo` leaves at the end is not part of the secret.
    const value = content.replace(/\r?\n$/, '');
    if (value.trim() === '') problems.push(`  ${name}_FILE: ${file} está vacío`);
    else vars[name] = value;
  }
  return { vars, problems };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "use the default", as most deployment tools write unset values that way.
  const { vars: present, problems } = withSecretFiles(Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')));
  if (problems.length > 0) throw new ConfigError(`Configuración no válida:\n${problems.join('\n')}`);
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    // The variable's name alone: a list's item (DNS_SERVERS.1) is the variable's problem.
    const lines = parsed.error.issues.map((issue) => `  ${String(issue.path[0] ?? '')}: ${issue.message}`);
    throw new ConfigError(`Configuración no válida:\n${lines.join('\n')}`);
  }
  const vars = parsed.data;
  const webDir = path.join(repoRoot, 'dist', 'web');
  return {
    port: vars.PORT,
    host: vars.HOST,
    dataDir: path.resolve(vars.DATA_DIR),
    publicBaseUrl: vars.PUBLIC_BASE_URL ?? `http://localhost:${vars.PORT}`,
    publicBaseUrlSet: vars.PUBLIC_BASE_URL !== undefined,
    databaseUrl: vars.DATABASE_URL,
    trustProxy: vars.TRUST_PROXY,
    logLevel: vars.LOG_LEVEL,
    redisUrl: vars.REDIS_URL,
    linkCacheSize: vars.LINK_CACHE_SIZE,
    clickFlushMs: vars.CLICK_FLUSH_MS,
    liveFeedHeartbeatMs: vars.LIVE_FEED_HEARTBEAT_MS,
    webhookLeaseMs: vars.WEBHOOK_LEASE_SECONDS * 1000,
    clickQueueLimit: vars.CLICK_QUEUE_LIMIT,
    authRateLimitPerIp: vars.AUTH_RATE_LIMIT_IP,
    authRateLimitPerEmail: vars.AUTH_RATE_LIMIT_EMAIL,
    apiDeadlineMs: vars.API_DEADLINE_MS,
    redirectMissLimit: vars.REDIRECT_MISS_LIMIT,
    apiRateLimit: vars.API_RATE_LIMIT,
    linksPerHour: vars.LINKS_PER_HOUR,
    allowPrivateDestinations: vars.ALLOW_PRIVATE_DESTINATIONS,
    adminEmails: vars.ADMIN_EMAILS,
    reportsPerHour: vars.REPORTS_PER_HOUR,
    addressHoldDays: vars.ADDRESS_HOLD_DAYS,
    domainsPerWorkspace: vars.DOMAINS_PER_WORKSPACE,
    dnsServers: vars.DNS_SERVERS,
    signup: vars.SIGNUP,
    http: {
      requestTimeoutMs: vars.HTTP_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: vars.HTTP_HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMs: vars.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    smtpUrl: vars.SMTP_URL,
    mailFrom: vars.MAIL_FROM ?? `Corto <no-reply@${new URL(vars.PUBLIC_BASE_URL ?? 'http://localhost').hostname}>`,
    clickRetentionDays: vars.CLICK_RETENTION_DAYS,
    metricsToken: vars.METRICS_TOKEN,
    s3: vars.S3_BUCKET
      ? {
          endpoint: vars.S3_ENDPOINT,
          region: vars.S3_REGION,
          bucket: vars.S3_BUCKET,
          accessKeyId: vars.S3_ACCESS_KEY_ID,
          secretAccessKey: vars.S3_SECRET_ACCESS_KEY,
          forcePathStyle: vars.S3_FORCE_PATH_STYLE,
        }
      : undefined,
    oidc:
      vars.OIDC_ISSUER && vars.OIDC_CLIENT_ID && vars.OIDC_CLIENT_SECRET
        ? {
            issuer: vars.OIDC_ISSUER,
            clientId: vars.OIDC_CLIENT_ID,
            clientSecret: vars.OIDC_CLIENT_SECRET,
            label: vars.OIDC_LABEL ?? new URL(vars.OIDC_ISSUER).hostname,
            adminGroup: vars.OIDC_ADMIN_GROUP,
            signup: vars.OIDC_SIGNUP,
            timeoutMs: vars.OIDC_TIMEOUT_MS,
          }
        : undefined,
    passwordLogin: vars.PASSWORD_LOGIN,
    webDir: existsSync(path.join(webDir, 'index.html')) ? webDir : undefined,
  };
}
