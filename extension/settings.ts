import { extensionMessages as m } from './extension-messages';

// What the options page keeps: the instance's address and a write token, in the browser's local
// storage of this extension (never synced: the token is a secret of this browser).

export interface Settings {
  /** The instance's address, without a trailing slash: 'https://corto.example.com'. */
  address: string;
  token: string;
}

const KEY = 'settings';

export async function loadSettings(): Promise<Settings | undefined> {
  const stored = (await chrome.storage.local.get(KEY))[KEY] as Partial<Settings> | undefined;
  if (typeof stored?.address !== 'string' || typeof stored.token !== 'string') return undefined;
  return { address: stored.address, token: stored.token };
}

export async function saveSettings(settings: Settings): Promise<void> {
  await chrome.storage.local.set({ [KEY]: settings });
}

/** The address as typed ('corto.example.com/', 'https://corto.example.com') in one form, or a Spanish problem. */
export function normalizeAddress(typed: string): { address: string } | { problem: string } {
  const trimmed = typed.trim();
  if (trimmed === '') return { problem: m.addressRequired };
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
  } catch {
    return { problem: m.addressInvalid };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: m.addressInvalid };
  // An instance may live under a path (PUBLIC_BASE_URL); a query or a fragment means nothing here.
  return { address: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
}
