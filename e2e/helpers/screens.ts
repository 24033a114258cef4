import { type Page, type Request, expect } from '@playwright/test';

/** A screen the accessibility and screenshot specs visit: open() leaves it fully rendered. */
export type Screen = {
  name: string;
  open: (page: Page) => Promise<void>;
};

async function openAt(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

/**
 * Shows the 'Redirecting...' screen: the app navigates to a short address, and the page load it
 * then starts towards the server is answered 204, which leaves the current document in place,
 * so the screen stays put while it is checked. Resolves with that page-load request.
 */
export async function openRedirectScreen(page: Page, code = 'e2ecode'): Promise<Request> {
  let sawRequest: (request: Request) => void = () => {};
  const requested = new Promise<Request>((resolve) => (sawRequest = resolve));
  await openAt(page, '/');
  await page.route(`**/${code}`, async (route) => {
    sawRequest(route.request());
    await route.fulfill({ status: 204 });
  });
  await navigateInApp(page, `/${code}`);
  await expect(page.getByText('Redirecting...')).toBeVisible();
  return requested;
}

/** Moves the single-page app to a path the way a router Link does: pushState plus popstate. */
export async function navigateInApp(page: Page, path: string) {
  // react-router's history reads its own key from the state; without one it treats it as a first load.
  // A string script: the e2e code is type-checked without the DOM library.
  await page.evaluate(`
    window.history.pushState({ usr: null, key: 'e2e-nav', idx: 1 }, '', ${JSON.stringify(path)});
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  `);
}

// Screens anyone can see. The accounts and links features add signed-in screens
// (/dashboard, /link/:id) with an open() that signs in first.
export const screens: Screen[] = [
  { name: 'landing', open: (page) => openAt(page, '/') },
  { name: 'auth', open: (page) => openAt(page, '/auth') },
  { name: 'auth-create-new', open: (page) => openAt(page, '/auth?createNew=https%3A%2F%2Fejemplo.com') },
  { name: 'not-found-route', open: (page) => openAt(page, '/no/existe/esta/pagina') },
  { name: 'not-found-short-code', open: (page) => openAt(page, '/zz9zz9') },
  {
    name: 'redirect',
    open: async (page) => {
      await openRedirectScreen(page);
    },
  },
];
