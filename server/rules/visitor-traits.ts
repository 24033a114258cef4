import type { IncomingMessage } from 'node:http';
import { UNKNOWN_LOCATION } from '@common/constants';
import { preferredLanguage, ruleBrowserOf, ruleSystemOf, type VisitorTraits } from '@common/rules/choose-destination';
import type { RuleBrowser, RuleDevice, RuleSystem } from '@common/rules/rule-schemas';
import { type AgentDetails, describeAgent } from '../clicks/device';
import { type Geo, type GeoLog, openGeo } from '../clicks/geo';

// What a link's rules may ask about a visit, worked out only when a rule asks and only once: a
// rule on the device parses the user agent (describeAgent keeps the few hundred agents seen), a
// rule on the country looks the address up, a rule on a parameter parses the query string.

// The geo database in the main thread (the clicks' may live in the writer's thread): opened when
// the first link with a country rule is visited, so an instance without one never loads it.
// Until it is open, every country is unknown.
let geo: Geo | undefined;
let geoRead = false;

/** Opens the geo database for the rules (once per process); `log` hears if it cannot be read. */
export function openRulesGeo(log: GeoLog): Geo {
  if (!geo) {
    geo = openGeo(log);
    void geo.ready.then(() => (geoRead = true));
  }
  return geo;
}

// A lookup walks 32 levels of the database's tree (a few µs, more when its pages are not cached):
// the countries of recent addresses are kept, since a visitor often comes back (or scans a code
// twice) within minutes, as the click enricher keeps their details.
const recentCountries = new Map<string, string | null>();
const COUNTRIES_KEPT = 10_000;

/** The visitor's country for the rules: ISO code, or null when unknown (or the database not open yet). */
export function countryOfAddress(ip: string): string | null {
  if (!geo) return null;
  let country = recentCountries.get(ip);
  if (country === undefined) {
    const located = geo.locate(ip).country;
    // Not kept before the database is read: the address would stay unknown.
    if (located === UNKNOWN_LOCATION && !geoRead) return null;
    country = located === UNKNOWN_LOCATION ? null : located;
    if (recentCountries.size >= COUNTRIES_KEPT) recentCountries.clear();
    recentCountries.set(ip, country);
  }
  return country;
}

/** One visit's traits. Besides the rules' questions, its client address (for the A/B bucket too). */
export class VisitTraits implements VisitorTraits {
  private agentDetails: AgentDetails | undefined;
  private address: string | undefined;
  private countryCode: string | null | undefined;
  private languageCode: string | null | undefined;
  private params: URLSearchParams | undefined;
  private at: number | undefined;

  constructor(
    private readonly request: IncomingMessage,
    private readonly clientAddress: (request: IncomingMessage) => string,
  ) {}

  private agent(): AgentDetails {
    return (this.agentDetails ??= describeAgent(this.request.headers['user-agent']));
  }

  /** The client's address as TRUST_PROXY says to read it: the same the click is counted from. */
  ip(): string {
    return (this.address ??= this.clientAddress(this.request));
  }

  device(): RuleDevice {
    return this.agent().device;
  }

  os(): RuleSystem | null {
    return ruleSystemOf(this.agent().os);
  }

  browser(): RuleBrowser | null {
    return ruleBrowserOf(this.agent().browser);
  }

  country(): string | null {
    if (this.countryCode === undefined) this.countryCode = countryOfAddress(this.ip());
    return this.countryCode;
  }

  language(): string | null {
    if (this.languageCode === undefined) this.languageCode = preferredLanguage(this.request.headers['accept-language']);
    return this.languageCode;
  }

  query(name: string): string | null {
    if (this.params === undefined) {
      const url = this.request.url ?? '';
      const queryAt = url.indexOf('?');
      const hashAt = url.indexOf('#', queryAt);
      this.params = new URLSearchParams(queryAt === -1 ? '' : url.slice(queryAt + 1, hashAt === -1 ? undefined : hashAt));
    }
    return this.params.get(name);
  }

  now(): number {
    return (this.at ??= Date.now());
  }
}
