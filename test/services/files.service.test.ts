import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { BlobsRepository } from '../../src/db/repositories/blobs.repository.ts';
import { FilesRepository } from '../../src/db/repositories/files.repository.ts';
import { dialects, freshDatabase } from '../helpers/databases.ts';
import { startTestApp } from '../helpers/app.ts';

async function* chunks(bytes: Buffer) {
  yield bytes;
}

for (const dialect of await dialects()) {
  describe(`files service on ${dialect}`, () => {
    test('a crash between durable bytes and the row leaves no file, only an unreferenced quilt', async () => {
      const t = await startTestApp(dialect);
      try {
        const account = (await t.context.keys.authenticate(t.key))!.accountId;
        const bytes = Buffer.from(`crash ${Math.random()}`);
        // Bytes reach the disk, then the process "dies" before the row is committed.
        const staged = await t.context.store.stage(chunks(bytes), { maxBytes: 1024 });
        const [location] = await t.context.store.persist([staged]);
        const reopened = await createContext(t.context.config);
        try {
          const page = await reopened.files.list(account, { limit: 100 });
          assert.equal(page.files.length, 0, 'nothing is listed without its row');
          await fs.access(path.join(t.dataDir, 'quilts', location!.quiltId.slice(0, 2), `${location!.quiltId}.quilt`));
          // The same content uploaded again is stored and readable.
          const again = await reopened.files.commit(account, undefined, [
            { staged: await reopened.files.stage(chunks(bytes), 1024), name: 'again.txt', mimeType: 'text/plain' },
          ]);
          const stream = await reopened.files.open(again[0]!);
          const read: Buffer[] = [];
          for await (const chunk of stream) read.push(chunk as Buffer);
          assert.deepEqual(Buffer.concat(read), bytes);
        } finally {
          await reopened.close();
        }
      } finally {
        await t.close();
      }
    });

    test('the list cache answers a page again while its account is unchanged; every change, on this replica or another, is seen at once', async () => {
      const t = await startTestApp(dialect, { TESSERA_GC_MIN_AGE_MS: '0' });
      // A second replica on the same database and data, with its own cache.
      const other = await createContext(t.context.config);
      try {
        const alice = (await t.context.keys.authenticate(t.key))!.accountId;
        const bob = (await t.context.keys.authenticate(t.otherKey))!.accountId;
        const put = async (on: typeof other, account: string, names: string[], spaceId?: string) =>
          on.files.commit(account, spaceId, await Promise.all(names.map(async (name) => ({ staged: await on.files.stage(chunks(Buffer.from(`${name} `.repeat(400))), 1 << 20), name, mimeType: 'text/plain' }))));
        const names = async (page: Promise<{ files: { name: string }[] }>) => (await page).files.map((f) => f.name);
        await put(t.context, alice, ['a', 'b', 'c', 'd', 'e']);
        const lookups = async () => Object.fromEntries((await t.context.metrics.listCacheLookups.get()).values.map((v) => [v.labels.result, v.value]));
        const first = await t.context.files.list(alice, { limit: 2 });
        assert.equal(await t.context.files.list(alice, { limit: 2 }), first, 'the same page, kept');
        assert.deepEqual(await lookups(), { miss: 1, hit: 1 });
        const second = await t.context.files.list(alice, { limit: 2, cursor: first.cursor });
        assert.deepEqual(await names(Promise.resolve(second)), ['c', 'b']);
        assert.equal(await t.context.files.list(alice, { limit: 2, cursor: first.cursor }), second);

        // Another account's change leaves alice's pages kept.
        await put(other, bob, ['x']);
        assert.equal(await t.context.files.list(alice, { limit: 2 }), first);

        // An upload on the other replica: both pages are read again.
        await put(other, alice, ['f']);
        assert.deepEqual(await names(t.context.files.list(alice, { limit: 2 })), ['f', 'e']);
        assert.deepEqual(await names(t.context.files.list(alice, { limit: 2, cursor: first.cursor })), ['c', 'b'], 'the old cursor, read again');

        // A delete there.
        const listed = (await t.context.files.list(alice, { limit: 10 })).files;
        await other.files.delete(alice, listed.find((f) => f.name === 'f')!.id);
        assert.deepEqual(await names(t.context.files.list(alice, { limit: 10 })), ['e', 'd', 'c', 'b', 'a']);

        // A Space deleted with its files; a key bound to a Space has its own pages.
        const space = await other.spaces.create(alice, 'trip');
        await put(other, alice, ['t1', 't2'], space.id);
        const bound = { accountId: alice, spaceId: space.id };
        assert.deepEqual(await names(t.context.files.list(bound, { limit: 10 })), ['t2', 't1']);
        assert.deepEqual(await names(t.context.files.list(alice, { limit: 3 })), ['t2', 't1', 'e']);
        await other.spaces.delete(alice, space.id, true);
        assert.deepEqual(await names(t.context.files.list(alice, { limit: 3 })), ['e', 'd', 'c']);
        await assert.rejects(t.context.files.list(bound, { limit: 10 }), (error: { code?: string }) => error.code === 'not_found');

        // gc moves the live blobs of a mostly dead quilt: the pages show their new quilt.
        const batch = await put(other, alice, ['g1', 'g2', 'g3', 'g4', 'g5', 'g6']);
        for (const f of batch.slice(1)) await other.files.delete(alice, f.id);
        const before = (await t.context.files.list(alice, { limit: 1 })).files[0]!;
        assert.equal(before.name, 'g1');
        assert.equal(await t.context.files.list(alice, { limit: 1 }).then((p) => p.files[0]), before, 'kept before gc');
        assert.ok((await other.maintenance.gc({ threshold: 0.5 })).blobsMoved >= 1);
        const after = (await t.context.files.list(alice, { limit: 1 })).files[0]!;
        assert.equal(after.blob_id, before.blob_id);
        assert.notEqual(after.quilt_id, before.quilt_id, 'the page shows the quilt gc moved it to');

        // A blob no committed file holds (its file deleted, the blob not reclaimed yet) may be
        // what an upload in flight deduplicates onto: moving it marks the account's list changed
        // all the same, as its key names the account (found through committed files, the upload's
        // page could be kept with the old quilt).
        const { db } = t.context.database;
        const [orphan] = await put(other, alice, ['o1']);
        assert.equal(await new FilesRepository(db).delete(alice, orphan!.id), true);
        const row = await db.selectFrom('blobs').selectAll().where('blob_id', '=', orphan!.blob_id).executeTakeFirstOrThrow();
        const version = await new FilesRepository(db).listVersion(alice);
        assert.equal(await new BlobsRepository(db).move(row.quilt_id, [{ blobId: row.blob_id, quiltId: 'q-elsewhere', quiltPatchId: 'p-elsewhere' }]), 1);
        assert.equal(await new FilesRepository(db).listVersion(alice), version! + 1);
      } finally {
        await other.close();
        await t.close();
      }
    });

    test("a page's entity tag is the same on every replica while the page is unchanged, and moves with every change on either", async () => {
      const t = await startTestApp(dialect);
      const other = await createContext(t.context.config);
      try {
        const alice = (await t.context.keys.authenticate(t.key))!.accountId;
        const bob = (await t.context.keys.authenticate(t.otherKey))!.accountId;
        const put = async (on: typeof other, account: string, names: string[], spaceId?: string) =>
          on.files.commit(account, spaceId, await Promise.all(names.map(async (name) => ({ staged: await on.files.stage(chunks(Buffer.from(`${name} etag`)), 1 << 20), name, mimeType: 'text/plain' }))));
        await put(t.context, alice, ['a', 'b', 'c']);
        const page = await t.context.files.list(alice, { limit: 2 });
        assert.match(page.etag ?? '', /^"l[\w-]{27}"$/);
        assert.equal(await t.context.files.listEtag(alice, { limit: 2 }), page.etag, 'the tag, without reading the page');
        assert.equal(await other.files.listEtag(alice, { limit: 2 }), page.etag, 'the same on another replica');
        // Each page has its own tag: another size, the next page, a Space.
        const space = await t.context.spaces.create(alice, 'etags');
        await put(t.context, alice, ['s1'], space.id);
        const tagNow = (await t.context.files.list(alice, { limit: 2 })).etag;
        const tags = [
          tagNow,
          (await t.context.files.list(alice, { limit: 3 })).etag,
          (await t.context.files.list(alice, { limit: 2, cursor: page.cursor })).etag,
          (await t.context.files.list(alice, { limit: 2, spaceId: space.id })).etag,
          (await t.context.files.list({ accountId: alice, spaceId: space.id }, { limit: 2 })).etag,
        ];
        assert.equal(new Set(tags.slice(0, 4)).size, 4, 'four pages, four tags');
        assert.equal(tags[3], tags[4], 'a Space asked for and a key bound to it list the same page');
        assert.notEqual(tagNow, page.etag, 'the upload to the Space changed the account list');
        // Another account's change leaves the tag; an upload or a delete on either replica moves it.
        await put(other, bob, ['x']);
        assert.equal(await t.context.files.listEtag(alice, { limit: 2 }), tagNow);
        const [d] = await put(other, alice, ['d']);
        const afterUpload = await t.context.files.listEtag(alice, { limit: 2 });
        assert.notEqual(afterUpload, tagNow);
        assert.equal((await t.context.files.list(alice, { limit: 2 })).etag, afterUpload, 'the page read now has the tag asked for now');
        await t.context.files.delete(alice, d!.id);
        assert.notEqual(await other.files.listEtag(alice, { limit: 2 }), afterUpload);
        // An empty page has no tag; a Space that is not there is 404 for the tag as for the page.
        const empty = await t.context.spaces.create(alice, 'empty');
        assert.equal((await t.context.files.list(alice, { limit: 2, spaceId: empty.id })).etag, undefined);
        await assert.rejects(t.context.files.listEtag(alice, { limit: 2, spaceId: 'spc_01ABCDEFGHJKMNPQRSTVWXYZ01' }), (error: { code?: string }) => error.code === 'not_found');
        await assert.rejects(t.context.files.listEtag(alice, { limit: 2, cursor: 'not-a-cursor' }), (error: { code?: string }) => error.code === 'invalid_cursor');
      } finally {
        await other.close();
        await t.close();
      }
    });

    test('a commit that fails in the database stores no row and releases its staging', async () => {
      const t = await startTestApp(dialect);
      try {
        const account = (await t.context.keys.authenticate(t.key))!.accountId;
        const staged = await t.context.files.stage(chunks(Buffer.alloc(10, 1)), 1024);
        await assert.rejects(
          t.context.files.commit(account, 'spc_01ABCDEFGHJKMNPQRSTVWXYZ01', [{ staged, name: 'x', mimeType: 'text/plain' }]),
          (error: { code?: string }) => error.code === 'not_found',
        );
        assert.equal((await t.context.files.list(account, { limit: 10 })).files.length, 0);
        assert.deepEqual(await fs.readdir(path.join(t.dataDir, 'quilts', 'tmp')), []);
      } finally {
        await t.close();
      }
    });

    test('concurrent uploads of the same bytes make one blob and many files', async () => {
      const t = await startTestApp(dialect);
      try {
        const account = (await t.context.keys.authenticate(t.key))!.accountId;
        const bytes = Buffer.from(`same ${Math.random()}`);
        const results = await Promise.all(
          Array.from({ length: 20 }, async (_, i) =>
            t.context.files.commit(account, undefined, [{ staged: await t.context.files.stage(chunks(bytes), 1024), name: `s${i}`, mimeType: 'text/plain' }]),
          ),
        );
        const blobIds = new Set(results.map((r) => r[0]!.blob_id));
        assert.deepEqual([...blobIds], [`${account}:${createHash('sha256').update(bytes).digest('base64url')}`]);
        const patches = new Set(results.map((r) => r[0]!.quilt_patch_id));
        assert.equal(patches.size, 1, 'every file points at the one recorded patch');
        const rows = await t.context.database.db.selectFrom('blobs').selectAll().where('blob_id', '=', [...blobIds][0]!).execute();
        assert.equal(rows.length, 1);
        assert.equal((await t.context.files.list(account, { limit: 100 })).files.length, 20);
      } finally {
        await t.close();
      }
    });

    test('an upload refused by the quota in its commit leaves no quilt behind', async () => {
      const t = await startTestApp(dialect, { TESSERA_DEFAULT_QUOTA_BYTES: '5000000' });
      try {
        const account = (await t.context.keys.authenticate(t.key))!.accountId;
        const quilts = async () => (await fs.readdir(path.join(t.dataDir, 'quilts'), { recursive: true })).filter((name) => name.endsWith('.quilt'));
        // Two 3 MB files (each a quilt of its own) pass the early check together; one commit wins.
        const staged = await Promise.all([1, 2].map((fill) => t.context.files.stage(chunks(Buffer.alloc(3_000_000, fill)), 10_000_000)));
        const results = await Promise.allSettled(staged.map((s, i) => t.context.files.commit(account, undefined, [{ staged: s, name: `f${i}`, mimeType: 'application/octet-stream' }])));
        assert.deepEqual(results.map((r) => r.status).sort(), ['fulfilled', 'rejected']);
        assert.equal(((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as { code: string }).code, 'quota_exceeded');
        assert.equal((await quilts()).length, 1, "only the stored file's quilt remains, without waiting for gc");
      } finally {
        await t.close();
      }
    });

    test('migrations are idempotent and a second context opens the same data', async () => {
      const database = await freshDatabase(dialect);
      const dataDir = await fs.mkdtemp(path.join((await import('node:os')).tmpdir(), 'tessera-mig-'));
      try {
        const config = loadConfig({ TESSERA_DATA_DIR: dataDir, DATABASE_URL: database.databaseUrl });
        const [a, b] = await Promise.all([createContext(config), createContext(config)]);
        const key = await a.keys.create('shared');
        assert.ok(await b.keys.authenticate(key.key));
        await a.close();
        await b.close();
      } finally {
        await database.drop();
        await fs.rm(dataDir, { recursive: true, force: true });
      }
    });
  });
}
