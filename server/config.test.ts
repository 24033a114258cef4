import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, SECRET_FILE_VARIABLES } from './config';

describe('loadConfig', () => {
  it('runs with no variables at all, on the embedded defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      publicBaseUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      trustProxy: false,
      redirectMissLimit: 30,
      linksPerHour: 200,
      allowPrivateDestinations: false,
    });
  });

  it('reads the abuse limits, 0 turning each off, and ALLOW_PRIVATE_DESTINATIONS as true or false', () => {
    expect(loadConfig({ REDIRECT_MISS_LIMIT: '0', LINKS_PER_HOUR: '0' })).toMatchObject({ redirectMissLimit: 0, linksPerHour: 0 });
    expect(loadConfig({ ALLOW_PRIVATE_DESTINATIONS: 'true' }).allowPrivateDestinations).toBe(true);
    expect(loadConfig({ ALLOW_PRIVATE_DESTINATIONS: 'false' }).allowPrivateDestinations).toBe(false);
  });

  it("reads ADDRESS_HOLD_DAYS: 30 days unless told, 0 frees a deleted link's addresses at once", () => {
    expect(loadConfig({}).addressHoldDays).toBe(30);
    expect(loadConfig({ ADDRESS_HOLD_DAYS: '0' }).addressHoldDays).toBe(0);
    expect(() => loadConfig({ ADDRESS_HOLD_DAYS: 'un mes' })).toThrow(/ADDRESS_HOLD_DAYS: debe ser un número de días/);
  });

  it('reads DOMAINS_PER_WORKSPACE: 10 unless told, 0 turns custom domains off', () => {
    expect(loadConfig({}).domainsPerWorkspace).toBe(10);
    expect(loadConfig({ DOMAINS_PER_WORKSPACE: '0' }).domainsPerWorkspace).toBe(0);
    expect(loadConfig({ DOMAINS_PER_WORKSPACE: '25' }).domainsPerWorkspace).toBe(25);
    expect(() => loadConfig({ DOMAINS_PER_WORKSPACE: 'muchos' })).toThrow(/DOMAINS_PER_WORKSPACE: debe ser un número de dominios/);
    expect(() => loadConfig({ DOMAINS_PER_WORKSPACE: '-1' })).toThrow(/DOMAINS_PER_WORKSPACE/);
  });

  it("reads DNS_SERVERS as a list of addresses with optional ports; unset, the system's resolver", () => {
    expect(loadConfig({}).dnsServers).toBeUndefined();
    expect(loadConfig({ DNS_SERVERS: '1.1.1.1, 127.0.0.1:5353,[::1]:53,2606:4700::1111' }).dnsServers).toEqual(['1.1.1.1', '127.0.0.1:5353', '[::1]:53', '2606:4700::1111']);
    expect(() => loadConfig({ DNS_SERVERS: 'dns.google' })).toThrow(/DNS_SERVERS: debe ser una lista de direcciones IP/);
    expect(() => loadConfig({ DNS_SERVERS: '1.1.1.1,udp://8.8.8.8' })).toThrow(/DNS_SERVERS/);
  });

  it('uses an S3 bucket only when S3_BUCKET is set, and refuses a half-made S3 configuration', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    expect(
      loadConfig({ S3_BUCKET: 'corto', S3_ENDPOINT: 'http://minio:9000/', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 'b', S3_FORCE_PATH_STYLE: 'true' }).s3,
    ).toEqual({ bucket: 'corto', endpoint: 'http://minio:9000', region: 'us-east-1', accessKeyId: 'a', secretAccessKey: 'b', forcePathStyle: true });
    expect(() => loadConfig({ S3_ENDPOINT: 'http://minio:9000' })).toThrow(/S3_BUCKET: es obligatorio/);
    expect(() => loadConfig({ S3_BUCKET: 'corto', S3_ACCESS_KEY_ID: 'a' })).toThrow(/S3_SECRET_ACCESS_KEY/);
    expect(() => loadConfig({ S3_BUCKET: 'Mal_Nombre' })).toThrow(/S3_BUCKET: debe ser un nombre de bucket/);
  });

  it('builds the public address on the chosen port and drops a trailing slash from a given one', () => {
    expect(loadConfig({ PORT: '8080' }).publicBaseUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://co.rto/' }).publicBaseUrl).toBe('https://co.rto');
  });

  it('reads TRUST_PROXY as a flag, a hop count or a list of addresses', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.2' }).trustProxy).toEqual(['10.0.0.1', '10.0.0.2']);
  });

  it('sets HTTP timeouts a real client never meets: 5 minutes for a request, 30 s for its headers, 72 s idle', () => {
    expect(loadConfig({}).http).toEqual({ requestTimeoutMs: 300_000, headersTimeoutMs: 30_000, keepAliveTimeoutMs: 72_000 });
    expect(loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '0', HTTP_HEADERS_TIMEOUT_MS: '400000' }).http.requestTimeoutMs).toBe(0);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' })).toMatchObject({ databaseUrl: undefined, port: 3000 });
  });

  it.each([
    ['PORT', 'abc', /PORT/],
    ['PORT', '70000', /PORT/],
    ['PUBLIC_BASE_URL', 'ftp://co.rto', /PUBLIC_BASE_URL: debe ser una dirección http/],
    ['DATABASE_URL', 'mysql://db/corto', /DATABASE_URL: debe ser una cadena de conexión postgres/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL/],
    ['REDIRECT_MISS_LIMIT', '-1', /REDIRECT_MISS_LIMIT/],
    ['LINKS_PER_HOUR', 'muchos', /LINKS_PER_HOUR: debe ser un número de links por hora/],
    ['ALLOW_PRIVATE_DESTINATIONS', 'yes', /ALLOW_PRIVATE_DESTINATIONS: debe ser true o false/],
    ['HTTP_REQUEST_TIMEOUT_MS', 'pronto', /HTTP_REQUEST_TIMEOUT_MS: debe ser un número de milisegundos/],
    ['HTTP_KEEP_ALIVE_TIMEOUT_MS', '0', /HTTP_KEEP_ALIVE_TIMEOUT_MS/],
    ['HTTP_HEADERS_TIMEOUT_MS', '400000', /HTTP_HEADERS_TIMEOUT_MS: no puede ser mayor que HTTP_REQUEST_TIMEOUT_MS/],
  ])('refuses %s=%s with a message naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});

describe('secrets from files (<NAME>_FILE)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'corto-secrets-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const secret = (name: string, content: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, content, { mode: 0o600 });
    return file;
  };

  it('reads each secret from its file, without the final newline', () => {
    const config = loadConfig({
      DATABASE_URL_FILE: secret('db', 'postgres://corto:clave-de-bd@db:5432/corto\n'),
      REDIS_URL_FILE: secret('redis', 'redis://:clave-redis@redis:6379\r\n'),
      SMTP_URL_FILE: secret('smtp', 'smtps://correo:clave-smtp@smtp.example:465'),
      METRICS_TOKEN_FILE: secret('metrics', 'un-token-de-metricas-1234\n'),
      S3_BUCKET: 'corto',
      S3_ACCESS_KEY_ID_FILE: secret('s3-id', 'corto-app\n'),
      S3_SECRET_ACCESS_KEY_FILE: secret('s3-secret', 'secreto/de+s3=\n'),
    });
    expect(config.databaseUrl).toBe('postgres://corto:clave-de-bd@db:5432/corto');
    expect(config.redisUrl).toBe('redis://:clave-redis@redis:6379');
    expect(config.smtpUrl).toBe('smtps://correo:clave-smtp@smtp.example:465');
    expect(config.metricsToken).toBe('un-token-de-metricas-1234');
    expect(config.s3).toMatchObject({ bucket: 'corto', accessKeyId: 'corto-app', secretAccessKey: 'secreto/de+s3=' });
    expect(SECRET_FILE_VARIABLES).toEqual(['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'METRICS_TOKEN', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'OIDC_CLIENT_SECRET']);
  });

  it('checks a value from a file as it checks the variable, and never shows what the file holds', () => {
    const file = secret('bad-db', 'mysql://root:muy-secreta@db/corto\n');
    expect(() => loadConfig({ DATABASE_URL_FILE: file })).toThrow(/DATABASE_URL: debe ser una cadena de conexión postgres/);
    expect(() => loadConfig({ DATABASE_URL_FILE: file })).not.toThrow(/muy-secreta/);
    expect(() => loadConfig({ METRICS_TOKEN_FILE: secret('short', 'corto\n') })).toThrow('METRICS_TOKEN: debe tener al menos 16 caracteres');
  });

  it('refuses a missing or empty file, and a secret given both ways, naming the variable', () => {
    expect(() => loadConfig({ REDIS_URL_FILE: path.join(dir, 'no-existe') })).toThrow(`REDIS_URL_FILE: no se puede leer ${path.join(dir, 'no-existe')} (ENOENT)`);
    expect(() => loadConfig({ SMTP_URL_FILE: secret('empty', '\n') })).toThrow('SMTP_URL_FILE:');
    expect(() => loadConfig({ SMTP_URL_FILE: secret('empty', '\n') })).toThrow('está vacío');
    const both = { METRICS_TOKEN: 'un-token-de-metricas-1234', METRICS_TOKEN_FILE: secret('m2', 'otro-token-de-metricas-99') };
    expect(() => loadConfig(both)).toThrow(ConfigError);
    expect(() => loadConfig(both)).toThrow('METRICS_TOKEN_FILE: METRICS_TOKEN ya está definida; usa una de las dos');
  });
});
