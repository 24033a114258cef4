// A workspace's slug: what names it in addresses (/w/{slug}) and in ?workspace=<slug>.
// Lowercase letters, digits and single hyphens; compared as stored, so unique regardless of case.

export const WORKSPACE_SLUG_MIN = 3;
export const WORKSPACE_SLUG_MAX = 40;
export const WORKSPACE_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,39}$/;

/** A slug made from a name: accents dropped, spaces and signs to hyphens; '' when nothing is left. */
export function slugFromName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, WORKSPACE_SLUG_MAX)
    .replace(/-+$/, '');
  return slug.length >= WORKSPACE_SLUG_MIN ? slug : '';
}

/** `base`, or `base-2`, `base-3`... within the length limit: the n-th candidate for a free slug. */
export function slugCandidate(base: string, n: number): string {
  if (n <= 1) return base;
  const suffix = `-${n}`;
  return `${base.slice(0, WORKSPACE_SLUG_MAX - suffix.length).replace(/-+$/, '')}${suffix}`;
}
