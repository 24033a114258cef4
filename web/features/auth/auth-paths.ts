// createNew (the long URL typed on the landing page) travels with every path to /dashboard.

export const CREATE_NEW_PARAM = 'createNew';

function withCreateNew(path: string, createNew: string | null): string {
  return createNew === null ? path : `${path}?${new URLSearchParams({ [CREATE_NEW_PARAM]: createNew })}`;
}

export const dashboardPath = (createNew: string | null) => withCreateNew('/dashboard', createNew);
export const authPath = (createNew: string | null) => withCreateNew('/auth', createNew);
