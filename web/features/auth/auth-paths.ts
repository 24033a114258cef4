// Where a visitor was going travels with every path to /auth and back: createNew (the long URL
// typed on the landing page, for the dashboard's create dialog) or next (any other signed-in screen).

export const CREATE_NEW_PARAM = 'createNew';
export const NEXT_PARAM = 'next';

function withCreateNew(path: string, createNew: string | null): string {
  return createNew === null ? path : `${path}?${new URLSearchParams({ [CREATE_NEW_PARAM]: createNew })}`;
}

export const dashboardPath = (createNew: string | null) => withCreateNew('/dashboard', createNew);
export const authPath = (createNew: string | null) => withCreateNew('/auth', createNew);

type Place = { pathname: string; search: string };

// A screen that knows better than the address where the user was going (the create dialog, whose
// long URL is in a form, not in the address) says so before its failed call forgets the session.
let returnPlace: Place | null = null;

export function returnAfterSignIn(place: Place | null): void {
  returnPlace = place;
}

/** /auth, remembering the screen the visitor was on (pathname plus query string). */
export function authPathFrom(current: Place): string {
  const location = returnPlace ?? current;
  const params = new URLSearchParams(location.search);
  // The dashboard with only its createNew (or nothing) keeps the short form; a filtered view
  // (?status=, ?tag=, ?sort=...) travels whole in next, like any other screen.
  if (location.pathname === '/dashboard' && [...params.keys()].every((key) => key === CREATE_NEW_PARAM)) {
    return authPath(params.get(CREATE_NEW_PARAM));
  }
  return `/auth?${new URLSearchParams({ [NEXT_PARAM]: location.pathname + location.search })}`;
}

/** Where to go once signed in: `next` if it is a path of this site, else the dashboard. */
export function afterSignInPath(searchParams: URLSearchParams): string {
  const next = searchParams.get(NEXT_PARAM);
  // Only a path on this origin: '//elsewhere.example' or '/\elsewhere' would leave the site.
  if (next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\')) return next;
  return dashboardPath(searchParams.get(CREATE_NEW_PARAM));
}
