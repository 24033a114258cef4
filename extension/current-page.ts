import { TITLE_MAX_LENGTH } from '@common/links/link-messages';

// The page the toolbar button was pressed on. The popup reads it through activeTab (pressing the
// button grants it); `popup.html?tab=<id>` names another tab, which the browser shows only when
// the extension was granted that tab too (how the end-to-end test opens the popup in a tab of its own).

/** Only web pages: chrome://, about:, file:, data:, view-source:, the browser's stores... cannot be shortened. */
export function isShortenable(url: string | undefined): url is string {
  if (!url) return false;
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** The title the link gets: the page's, or its host when it has none. */
export function titleFor(url: string, title: string | undefined): string {
  // Control and direction-changing characters, which the API refuses in a title, are dropped.
  const clean = (title ?? '')
    .replace(/[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return (clean || new URL(url).host).slice(0, TITLE_MAX_LENGTH);
}

export async function currentTab(search: string): Promise<chrome.tabs.Tab | undefined> {
  const named = Number(new URLSearchParams(search).get('tab'));
  if (Number.isInteger(named) && named > 0) return chrome.tabs.get(named).catch(() => undefined);
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  return tab;
}
