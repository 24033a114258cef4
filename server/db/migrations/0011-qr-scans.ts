import { type Kysely, sql } from 'kysely';

// QR scans and query forwarding. A visit of a link's address with ?qr=1 (what its QR codes carry
// now) is counted as a scan as well as a click: scan_count beside click_count, and a 'scans'
// roll-up beside 'total'. forward_query passes a visit's own query string on to the destination.
// qr_version says what a link's stored PNG encodes: 1, the bare short address (before this
// migration); 2, the address with ?qr=1. Existing rows get 1 and new ones 2, and the server remakes
// the version-1 files once started (server/links/qr-refresh.ts), which needs the object store, so
// it cannot run inside the migration itself.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
export async function up(db: Kysely<any>): Promise<void> {
  const urls = () => db.schema.alterTable('urls');
  await urls().addColumn('scan_count', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await urls().addColumn('forward_query', 'smallint', (c) => c.notNull().defaultTo(0)).execute();
  await urls().addColumn('qr_version', 'smallint', (c) => c.notNull().defaultTo(2)).execute();
  await sql`update urls set qr_version = 1`.execute(db);
  // The refresh finds what is left to remake without reading every link.
  await db.schema.createIndex('urls_qr_version_idx').on('urls').columns(['qr_version', 'id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('urls_qr_version_idx').execute();
  for (const name of ['qr_version', 'forward_query', 'scan_count']) {
    await db.schema.alterTable('urls').dropColumn(name).execute();
  }
}
