import { afterAll } from 'vitest';
import { dropPostgresSchema } from './postgres-schema';
import { dropReusedSchemas, reuseSchemas } from './postgres-schema-reuse';

// Vitest runs this before each test file: its PostgreSQL test apps reuse each other's schemas,
// and the last ones go with the file.
const url = process.env.TEST_DATABASE_URL;
if (url) {
  reuseSchemas();
  afterAll(() => dropReusedSchemas((schema) => dropPostgresSchema(url, schema)));
}
