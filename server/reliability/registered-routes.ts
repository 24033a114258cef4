import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  method: string;
  url: string;
}

/**
 * Every route the app has, read from Fastify's own route tree (printRoutes), so a route added
 * later shows up here without anyone listing it. Each line is a tree node: its depth comes from the
 * 4-character indent groups, its path from its ancestors' segments, its methods from "(GET, HEAD)".
 */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    const url = (stack.at(-1) ?? '') + match[2]!;
    stack.push(url);
    for (const method of match[3]?.split(', ') ?? []) routes.push({ method, url });
  }
  if (routes.length === 0) throw new Error(`could not read the route tree:\n${app.printRoutes()}`);
  return routes;
}

/** The routes under /api, as "METHOD /path" keys. */
export function apiRouteKeys(app: FastifyInstance): string[] {
  return registeredRoutes(app)
    .filter((route) => route.url === '/api' || route.url.startsWith('/api/'))
    .map((route) => `${route.method} ${route.url}`)
    .sort();
}
