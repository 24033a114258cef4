import type { Kysely } from 'kysely';

// Abuse reports can be handled: 'open' (new), 'resolved' (acted on) or 'dismissed' (nothing to do).
// resolved_at (migration 0014) says when it was handled, handled_by by whom (the admin's e-mail,
// copied as the audit log does). The index serves the count of open reports and each list.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('reports').addColumn('state', 'text', (c) => c.notNull().defaultTo('open')).execute();
  await db.schema.alterTable('reports').addColumn('handled_by', 'text').execute();
  await db.schema.createIndex('reports_state_id_idx').on('reports').columns(['state', 'id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('reports_state_id_idx').execute();
  await db.schema.alterTable('reports').dropColumn('handled_by').execute();
  await db.schema.alterTable('reports').dropColumn('state').execute();
}

// A column with a default, a nullable one and an index: the release before it runs on this schema
// unchanged (its new reports are open).
export const compatibleWithPrevious = true;
