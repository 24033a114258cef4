import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppContext } from './app-context';
import { createClickWriter } from './clicks/click-writer';
import { adminRoutes } from './admin/admin.routes';
import { domainsRoutes } from './domains/domains.routes';
import { createHostedDomains } from './domains/hosted-domains';
import { createBlockedDomains } from './admin/blocked-domains';
import { promoteAdminEmails } from './admin/admin-emails';
import { accountPlugin } from './account/account.plugin';
import { authRoutes } from './auth/auth.routes';
import { oidcAccountRoutes } from './auth/oidc/oidc-account.routes';
import { oidcRoutes } from './auth/oidc/oidc.routes';
import { refuseCrossOrigin } from './auth/cross-origin';
import { registerSessionSupport } from './auth/session-support';
import type { Config } from './config';
import type { DatabaseHandle } from './db/database';
import { healthRoutes } from './health/health.routes';
import { createMetrics } from './metrics/metrics';
import { createReachability } from './metrics/reachability';
import { metricsRoutes } from './metrics/metrics.routes';
import { linksRoutes } from './links/links.routes';
import { registerApiDeadline } from './http/api-deadline';
import { registerControlCharacterCheck } from './http/control-characters';
import { clientErrorHandler, frameworkErrors, registerErrorHandler } from './http/error-handler';
import { registerNoStore, registerSecurityHeaders } from './http/security-headers';
import { clientAddressReader, compileTrustProxy, TRUST_EVERY_PROXY_WARNING } from './http/client-address';
import { requestSerializer } from './http/log-redaction';
import { type FrontHandler, serverFactoryWith } from './http/node-server';
import { createLinkCache } from './redirect/link-cache';
import { createClickLimits } from './redirect/click-limit';
import { createRedirectAnswer } from './redirect/redirect-answer';
import { previewImageUrl } from './previews/preview-image';
import { createRedirectFastPath } from './redirect/redirect-fast-path';
import { redirectRawUtf8Path } from './redirect/raw-path-redirect';
import { redirectRoutes } from './redirect/redirect.routes';
import { registerSiteGate } from './redirect/site-gate';
import { registerOpenApi } from './openapi/openapi';
import { docsPage, openApiRoutes } from './openapi/openapi.routes';
import { createLimiterFactory } from './rate-limits/shared-limiter';
import { openStorage } from './storage/open-storage';
import { refuseTokensOnPrivatePrefixes, registerBearerAuth } from './tokens/bearer-auth';
import { allowExtensionsWithTokens } from './tokens/extension-cors';
import { createTokenCache } from './tokens/token-cache';
import { tokensRoutes } from './tokens/tokens.routes';
import { staticRoutes } from './static/static.routes';
import { statsRoutes } from './stats/stats.routes';
import { mcpRoutes } from './mcp/mcp.routes';
import { webhooksRoutes } from './webhooks/webhook.routes';
import { createWebhooks } from './webhooks/webhooks';
import { workspacesPlugin } from './workspaces/workspaces.plugin';
import { rememberWorkspaceParam } from './workspaces/workspace-access';
import { createLiveFeed } from './webhooks/live-feed';
import { liveFeedRoutes } from './webhooks/live-feed.routes';
import { named } from './http/plugin-name';

export interface BuildAppOptions {
  config: Config;
  database: DatabaseHandle;
  /** Where log lines go (stdout unless told): tests read what the server says. */
  logStream?: DestinationStream;
}

/** The whole server, ready to listen or to be injected into by tests. */
export async function buildApp({ config, database, logStream }: BuildAppOptions): Promise<FastifyInstance> {
  const trustProxy = compileTrustProxy(config.trustProxy);
  // Set once the context exists: redirects of cached links are answered before Fastify's router.
  const front: { handle?: FrontHandler } = {};
  const app: FastifyInstance = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      // Request lines without the secrets a query string may carry (?token=, ?invite=...).
      serializers: { req: requestSerializer },
      ...(logStream ? { stream: logStream } : {}),
    },
    serverFactory: serverFactoryWith(
      () => front.handle,
      () => app.log,
      // '/Ñoquis' sent as raw UTF-8 (not allowed in HTTP, so refused by Node's parser): a 301 to '/%C3%91oquis'.
      (error, socket) => void redirectRawUtf8Path(error, socket),
    ),
    trustProxy,
    bodyLimit: 1024 * 1024,
    frameworkErrors,
    clientErrorHandler,
    // A client trickling its headers or body is cut off (408) instead of holding a connection
    // for ever; a real one, a 5 MB picture from a slow phone included, is well within them.
    requestTimeout: config.http.requestTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    http: { headersTimeout: config.http.headersTimeoutMs, requestTimeout: config.http.requestTimeoutMs },
  });
  if (config.trustProxy === true) app.log.warn({ trustProxy: true }, TRUST_EVERY_PROXY_WARNING);
  // The API speaks JSON (and multipart for the picture): text/plain is refused with 415.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  // Before any route, so the OpenAPI document sees them all.
  await registerOpenApi(app, config);

  const clickLimits = createClickLimits(database, app.log);
  // The operator's list, in memory before the first redirect; ADMIN_EMAILS' proved accounts made admins.
  const blockedDomains = createBlockedDomains(database.db);
  await blockedDomains.load();
  const hostedDomains = createHostedDomains(database.db, config.publicBaseUrl);
  await hostedDomains.load();
  await promoteAdminEmails(database.db, config.adminEmails);
  const liveFeed = createLiveFeed({ db: database.db, publicBaseUrl: config.publicBaseUrl, redisUrl: config.redisUrl, log: app.log });
  const webhooks = createWebhooks({ database, config, log: app.log });
  const context: AppContext = {
    config,
    database,
    storage: await openStorage(config),
    blockedDomains,
    hostedDomains,
    linkCache: createLinkCache({
      db: database.db,
      maxEntries: config.linkCacheSize,
      redisUrl: config.redisUrl,
      log: app.log,
      onForgotten: (id) => clickLimits.forgotten(id),
      blockedDomains,
      hostedDomains,
    }),
    clickLimits,
    clickWriter: createClickWriter({
      database,
      log: app.log,
      flushMs: config.clickFlushMs,
      queueLimit: config.clickQueueLimit,
      onWritten: (batch) => liveFeed.written(batch),
      webhooks: { announcement: webhooks.clickAnnouncement, announced: webhooks.announced },
    }),
    liveFeed,
    webhooks,
    limiters: createLimiterFactory({ redisUrl: config.redisUrl, log: app.log }),
    tokenCache: createTokenCache({ db: database.db, redisUrl: config.redisUrl, log: app.log }),
  };
  // Shared limits count in Redis from the first request (or know at once that it is away).
  await context.limiters.settled;
  // The enabled webhooks read and the outbox's dispatcher running (stopped on close).
  await webhooks.start();
  app.decorate('appContext', context);

  const https = config.publicBaseUrl.startsWith('https:');
  const answer = createRedirectAnswer({
    clickWriter: context.clickWriter,
    clientAddress: clientAddressReader(trustProxy),
    https,
    log: app.log,
    previewImageUrl: (key) => previewImageUrl(context.storage, config.publicBaseUrl, key),
  });
  const reachability = createReachability(context);
  const metrics = createMetrics({ clickWriter: context.clickWriter, database, reachability: reachability.check });
  const fastPath = createRedirectFastPath(context.linkCache, answer, clickLimits, metrics, hostedDomains);
  // Every answer Fastify gives (the fast path's redirects are counted there, by plain increments).
  app.addHook('onResponse', async (request, reply) => metrics.countResponse(request, reply));
  front.handle = fastPath.handle;
  // Closing: Fastify answers what still arrives on open connections with 503 and closes them.
  app.addHook('preClose', async () => fastPath.stop());
  // onClose hooks run after the server has stopped taking requests: the queue is complete.
  app.addHook('onClose', async () => {
    reachability.close();
    await context.clickWriter.close();
    await context.liveFeed.close();
    await webhooks.close();
    await clickLimits.close();
    await context.linkCache.close();
    await context.limiters.close();
    await context.tokenCache.close();
    context.storage.close();
  });

  // CSP, nosniff, Referrer-Policy, frame-ancestors on every answer; first, so refusals get them too.
  await registerSecurityHeaders(app, { https });
  // The Host header's site, before every route and the refusals below: a custom domain serves its
  // visitors' pages only, a host nobody added nothing at all (request.site for the routes).
  registerSiteGate(app, hostedDomains, config.publicBaseUrl);
  // The refusal of writes sent from other sites: on every write whatever its path (the router
  // decodes '/%61pi/...' to the API too), synchronous, so a redirect pays one function call for it.
  // A browser extension's preflight and bearer answers (extension/), refusals included: CORS for
  // extensions' origins only.
  app.addHook('onRequest', allowExtensionsWithTokens);
  // A personal API token never reaches /api/tokens, /api/account or /api/admin, routes or not.
  app.addHook('onRequest', refuseTokensOnPrivatePrefixes);
  app.addHook('onRequest', refuseCrossOrigin(config));
  // The API in a scope of its own: the redirect route needs none of its per-request hooks.
  await app.register(named('apiScope', async (api) => {
    // Nothing the API answers is for a cache to keep, unless its route says otherwise.
    registerNoStore(api);
    // A 503 rather than a hang when the database goes silent.
    registerApiDeadline(api, config.apiDeadlineMs);
    // No text with a control character gets past here (a NUL would reach PostgreSQL and answer 500).
    registerControlCharacterCheck(api);
    // Cookies, request.user and app.sessionUserOf, for every API route.
    await registerSessionSupport(api, context);
    // ?workspace=<slug> on every API route, whatever its query schema keeps (workspace-access.ts).
    // Here rather than on the whole app: the redirect routes act in no workspace.
    api.decorateRequest('workspaceParam', null);
    api.addHook('onRequest', (request, _reply, done) => {
      rememberWorkspaceParam(request);
      done();
    });
    // Authorization: Bearer <secret>: the token's user, scope and rate limit (RateLimit-* headers).
    registerBearerAuth(api, {
      cache: context.tokenCache,
      limiter: context.limiters.create({ name: 'api-token', points: config.apiRateLimit, durationSeconds: 60 }),
    });
    // In this order; each by its function's name (plugin-name.ts).
    for (const routes of [
      healthRoutes,
      authRoutes,
      oidcRoutes,
      oidcAccountRoutes,
      accountPlugin,
      linksRoutes,
      statsRoutes,
      mcpRoutes,
      liveFeedRoutes,
      tokensRoutes,
      workspacesPlugin,
      domainsRoutes,
      webhooksRoutes,
    ]) {
      await api.register(named(routes.name, routes), context);
    }
    await api.register(named('openApiRoutes', openApiRoutes));
    await api.register(named('adminRoutes', adminRoutes), context);
  }));
  await app.register(named('docsPage', docsPage));
  await app.register(named('metricsRoutes', metricsRoutes), { metrics, token: config.metricsToken });
  // The routes' redirects counted apart from the fast path's, which counts its own.
  await app.register(named('redirectRoutes', redirectRoutes), { ...context, answer: metrics.countedAnswer(answer) });
  await app.register(named('staticRoutes', staticRoutes), context);
  return app;
}
