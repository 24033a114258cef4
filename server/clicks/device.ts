import { DEFAULT_DEVICE } from '@common/constants';
import { UAParser } from 'ua-parser-js';
import { isBotAgent } from './bots';

export type DeviceType = 'mobile' | 'tablet' | 'desktop';

export interface AgentDetails {
  device: DeviceType;
  /** null when the agent does not say. */
  browser: string | null;
  os: string | null;
  isBot: boolean;
}

// ua-parser-js types: mobile, tablet, console, smarttv, wearable, embedded, or none (a computer).
function deviceOf(type: string | undefined): DeviceType {
  if (type === 'mobile' || type === 'wearable') return 'mobile';
  if (type === 'tablet') return 'tablet';
  return DEFAULT_DEVICE;
}

function parse(userAgent: string): AgentDetails {
  const result = new UAParser(userAgent).getResult();
  return {
    device: deviceOf(result.device.type),
    browser: result.browser.name ?? null,
    os: result.os.name ?? null,
    isBot: isBotAgent(userAgent),
  };
}

// Most traffic comes from a few hundred distinct agents: parsing each once saves the regexes.
const CACHE_LIMIT = 2000;
const cache = new Map<string, AgentDetails>();

/** Device type, browser, OS and bot flag from a User-Agent header; no header means a desktop. */
export function describeAgent(userAgent: string | undefined): AgentDetails {
  const key = userAgent ?? '';
  let details = cache.get(key);
  if (!details) {
    details = key === '' ? { device: DEFAULT_DEVICE, browser: null, os: null, isBot: false } : parse(key);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, details);
  }
  return details;
}
