// The PostgreSQL server tests use: SKIPPER_TEST_DATABASE_URL (.ci/run starts a throwaway cluster and sets it).
// Every caller gets its own schema, so runs and tests never see each other's rows; the schemas are dropped after.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const testDatabaseUrl: string | undefined = process.env.SKIPPER_TEST_DATABASE_URL;

/** Why PostgreSQL tests skip here, printed once; undefined when they run. */
export function pgSkipReason(): string | undefined {
  if (testDatabaseUrl) return undefined;
  return 'SKIPPER_TEST_DATABASE_URL is unset: PostgreSQL store tests skipped (.ci/run starts a server and sets it)';
}

/** A fresh schema name and the store URL that selects it. */
export function freshSchemaUrl(base = testDatabaseUrl ?? ''): { url: string; schema: string } {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const url = new URL(base);
  url.searchParams.set('schema', schema);
  return { url: url.toString(), schema };
}

/** Drops schemas made by freshSchemaUrl (and everything in them). */
export async function dropSchemas(schemas: readonly string[], base = testDatabaseUrl ?? ''): Promise<void> {
  if (schemas.length === 0) return;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}
