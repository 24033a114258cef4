import type { Page, Request, Route } from '@playwright/test';

/** Holds every request matching `url` until release() is called, as a slow server or network would. */
export async function holdRequests(page: Page, url: string | RegExp | ((url: URL) => boolean)) {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const held: Request[] = [];
  await page.route(url, async (route: Route) => {
    held.push(route.request());
    await released;
    await route.continue().catch(() => undefined); // the page may have given up on it meanwhile
  });
  return { release, held };
}
