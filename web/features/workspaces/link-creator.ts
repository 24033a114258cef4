import type { Link } from '@common/links/link-schemas';

/** Who created a link: a workspace's link carries `createdBy` ({ id, name }); null when the answer has none. */
export function linkCreator(link: Link): { id: number; name: string } | null {
  const { createdBy } = link as Link & { createdBy?: { id: number; name: string } | null };
  return createdBy ?? null;
}
