/** Says plainly, once per run, whether PostgreSQL was part of it. */
export default function setup(): void {
  if (process.env.TEST_DATABASE_URL) {
    console.log(`\n[tests] database tests run on SQLite and on PostgreSQL (${process.env.TEST_DATABASE_URL})\n`);
  } else {
    console.log('\n[tests] WARNING: TEST_DATABASE_URL is not set, so PostgreSQL was NOT tested; only SQLite ran.\n');
  }
}
