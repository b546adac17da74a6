/**
 * A real PostgreSQL for the tests of the shared journal: CONTRACTGEN_TEST_PG_URL, else the machine's
 * loopback server (trust auth, user postgres). Each test gets a schema of its own, dropped at the end.
 * Where no server answers, the tests that need one are skipped with a message saying so, unless
 * CONTRACTGEN_REQUIRE_POSTGRES=1 (CI sets it: .ci/run makes sure a server runs), which fails them.
 */
import pg from "pg";

export const PG_URL = process.env.CONTRACTGEN_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const REQUIRED = process.env.CONTRACTGEN_REQUIRE_POSTGRES === "1";

/** Whether a server answers at PG_URL (checked once). Throws when one is required and none answers. */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch (e) {
    const why = `no PostgreSQL answers at ${PG_URL.replace(/:[^:@/]*@/, ":***@")} (${(e as { code?: string }).code ?? (e as Error).message})`;
    if (REQUIRED) throw new Error(`${why}; CONTRACTGEN_REQUIRE_POSTGRES=1 asks for one`);
    console.warn(`skipping the PostgreSQL tests: ${why}. Set CONTRACTGEN_TEST_PG_URL, or start a server on loopback.`);
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const schemas: string[] = [];

/** A URL whose connections use a fresh, empty schema (its own operation_journal and schema version). */
export async function freshSchemaUrl(): Promise<string> {
  const name = `cg_test_${process.pid}_${Date.now().toString(36)}_${schemas.length}`;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA ${name}`);
  } finally {
    await client.end();
  }
  schemas.push(name);
  const url = new URL(PG_URL);
  url.searchParams.set("options", `-c search_path=${name}`);
  return url.toString();
}

/** Drop every schema freshSchemaUrl made. */
export async function dropSchemas(): Promise<void> {
  if (schemas.length === 0) return;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    for (const name of schemas.splice(0)) await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
  } finally {
    await client.end();
  }
}
