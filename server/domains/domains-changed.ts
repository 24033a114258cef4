import type { AppContext } from '../app-context';

/**
 * After any change to a domain row: this instance's registry reads the table again now, and every
 * instance (through Redis) reloads its own and empties its link cache, so a redirect never answers
 * from what a domain was.
 */
export async function domainsChanged({ hostedDomains, linkCache }: Pick<AppContext, 'hostedDomains' | 'linkCache'>): Promise<void> {
  await hostedDomains.load();
  await linkCache.forgetAll();
}
