import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GroupCommit } from '../../src/db/group-commit.ts';
import { isUniqueViolation } from '../../src/db/database.ts';
import { startTestApp, upload, type TestApp } from '../helpers/app.ts';

describe('group commit (SQLite)', () => {
  let t: TestApp;
  let accountId: string;
  let spaceId: string;

  before(async () => {
    t = await startTestApp('sqlite');
    const space = await t.context.database.db.selectFrom('spaces').selectAll().where('name', '=', 'default').executeTakeFirstOrThrow();
    accountId = space.account_id;
    spaceId = space.id;
  });
  after(() => t.close());

  const spaceRow = (id: string) => ({ id, account_id: accountId, name: id, created_at: Date.now() });

  test('concurrent writes share commits; one failing write fails alone, the others are stored', async () => {
    const group = new GroupCommit(t.context.database.db, 256);
    const ids = Array.from({ length: 40 }, (_, i) => `spc_group_${String(i).padStart(2, '0')}`);
    const outcomes = await Promise.allSettled(
      ids.map((id, i) =>
        group.run(async (trx) => {
          await trx.insertInto('spaces').values(spaceRow(id)).execute();
          // Write 7 inserts a second row, then breaks a unique constraint: both must vanish.
          if (i === 7) {
            await trx.insertInto('spaces').values(spaceRow(`${id}_extra`)).execute();
            await trx.insertInto('spaces').values(spaceRow(ids[0]!)).execute();
          }
          return id;
        }),
      ),
    );
    assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 39);
    const failed = outcomes[7]!;
    assert.equal(failed.status, 'rejected');
    assert.ok(isUniqueViolation((failed as PromiseRejectedResult).reason));

    const stored = (await t.context.database.db.selectFrom('spaces').select('id').where('id', 'like', 'spc_group_%').execute()).map((r) => r.id).sort();
    assert.deepEqual(stored, ids.filter((_, i) => i !== 7), 'all but the failed write, and nothing of it');
    assert.equal(group.writes, 40);
    assert.ok(group.commits < group.writes / 4, `${group.writes} writes in ${group.commits} commits`);
  });

  test('a write that needs another write of its batch sees it (one connection, one transaction)', async () => {
    const group = new GroupCommit(t.context.database.db, 256);
    const [first, second] = await Promise.all([
      group.run((trx) => trx.insertInto('spaces').values(spaceRow('spc_seen_a')).execute()),
      group.run(async (trx) => (await trx.selectFrom('spaces').select('id').where('id', '=', 'spc_seen_a').executeTakeFirst())?.id),
    ]);
    assert.ok(first);
    assert.equal(second, 'spc_seen_a');
  });

  test('uploads through the server are grouped: 60 concurrent uploads, every file listed and readable', async () => {
    const files = Array.from({ length: 60 }, (_, i) => ({ name: `f${i}.txt`, content: `file number ${i}`, type: 'text/plain' }));
    const answers = await Promise.all(files.map((file) => upload(t, [file], { fields: { workspace_id: spaceId } })));
    assert.ok(answers.every((a) => a.statusCode === 201));
    const listed = (await t.app.inject({ method: 'GET', url: `/v1/storage/files?workspace_id=${spaceId}&limit=1000`, headers: { 'x-api-key': t.key } })).json().files as Array<{ fileId: string; name: string }>;
    assert.equal(listed.filter((f) => /^f\d+\.txt$/.test(f.name)).length, 60);
    for (const answer of answers.slice(0, 5)) {
      const record = answer.json().files[0];
      const bytes = await t.app.inject({ method: 'GET', url: `/v1/storage/files/${record.fileId}/content`, headers: { 'x-api-key': t.key } });
      assert.equal(bytes.body, `file number ${record.name.slice(1, -4)}`);
    }
  });
});
