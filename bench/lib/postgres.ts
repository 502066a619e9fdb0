import pg from "pg";

/**
 * Runs one statement on the Postgres server at `url` (DATABASE_URL by default): creating,
 * dropping databases.
 */
export const onPostgres = async (
  statement: string,
  url = process.env.DATABASE_URL,
): Promise<void> => {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
};
