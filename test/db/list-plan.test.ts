import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql, type Compilable } from 'kysely';
import { FilesRepository } from '../../src/db/repositories/files.repository.ts';
import { dialects } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

/**
 * The list must walk an index in order on both dialects: no full scan, no sort, so a page
 * 900,000 files deep costs what the first page costs. Set TESSERA_PRINT_PLANS=1 to print them
 * (docs/query-plans.md was made that way).
 */
async function explain(t: TestApp, query: Compilable): Promise<string> {
  const { sql: text, parameters } = query.compile();
  let i = 0;
  // Inline the values: EXPLAIN cannot take bind parameters on every dialect.
  const inlined = text.replace(/\?|\$\d+/g, () => {
    const value = parameters[i++];
    return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  });
  const prefix = t.context.database.dialect === 'sqlite' ? 'EXPLAIN QUERY PLAN ' : 'EXPLAIN ';
  const { rows } = await sql.raw<Record<string, string>>(prefix + inlined).execute(t.context.database.db);
  const plan = rows.map((row) => row.detail ?? row['QUERY PLAN']).join('\n');
  if (process.env.TESSERA_PRINT_PLANS) console.log(`-- ${t.context.database.dialect}\n${inlined}\n${plan}\n`);
  return plan;
}

for (const dialect of await dialects()) {
  describe(`list query plan on ${dialect}`, () => {
    let t: TestApp;
    let accountId: string;
    let spaceId: string;
    before(async () => {
      t = await startTestApp(dialect);
      const { db } = t.context.database;
      const accounts = await Promise.all(['p1', 'p2', 'p3'].map((name) => t.context.keys.create(name)));
      accountId = accounts[0]!.accountId;
      const spaces = await db.selectFrom('spaces').select(['id', 'account_id']).execute();
      spaceId = spaces.find((s) => s.account_id === accountId)!.id;
      // Enough rows, over several accounts, that the planner's statistics matter.
      const rows = [];
      const blobs = [];
      for (let i = 0; i < 6000; i++) {
        blobs.push({ blob_id: `blob${i}`, size_bytes: 1, quilt_id: 'q', quilt_patch_id: `p${i}`, created_at: 0 });
        const owner = accounts[i % 3]!.accountId;
        rows.push({
          id: `file_${String(i).padStart(26, '0')}`,
          account_id: owner,
          space_id: spaces.find((s) => s.account_id === owner)!.id,
          blob_id: `blob${i}`,
          name: `f${i}`,
          mime_type: 'text/plain',
          size_bytes: 1,
          created_at: 1_700_000_000_000 + i,
        });
      }
      for (let i = 0; i < rows.length; i += 500) {
        await db.insertInto('blobs').values(blobs.slice(i, i + 500)).execute();
        await db.insertInto('files').values(rows.slice(i, i + 500)).execute();
      }
      await sql`analyze`.execute(db);
    });
    after(() => t.close());

    for (const [label, deep] of [['first page', false], ['deep page', true]] as const) {
      for (const inSpace of [false, true]) {
        test(`${label}${inSpace ? ' of one Space' : ''} walks the index without scan or sort`, async () => {
          const repo = new FilesRepository(t.context.database.db);
          const filter = inSpace ? { accountId, spaceId } : { accountId };
          const plan = await explain(t, repo.listQuery(filter, 101, deep ? { createdAt: 1_700_000_003_000, id: 'file_00000000000000000000003000' } : undefined));
          const index = inSpace ? 'files_space_order' : 'files_account_order';
          if (dialect === 'sqlite') {
            assert.match(plan, new RegExp(`SEARCH files USING (COVERING )?INDEX ${index}`));
            assert.doesNotMatch(plan, /SCAN files|TEMP B-TREE/);
            // The list version beside the rows is read once, not per row.
            assert.match(plan, /SCALAR SUBQUERY/);
            assert.doesNotMatch(plan, /CORRELATED/);
          } else {
            assert.match(plan, new RegExp(`Index Scan Backward using ${index} on files`));
            assert.doesNotMatch(plan, /Seq Scan on files|Sort/);
            assert.match(plan, /InitPlan/);
            assert.doesNotMatch(plan, /SubPlan/);
          }
        });
      }
    }
  });
}
