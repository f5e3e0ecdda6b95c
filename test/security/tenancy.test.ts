import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialects } from '../helpers/databases.ts';
import { startTestApp, upload, type TestApp } from '../helpers/app.ts';
import { redBlue } from '../helpers/images.ts';

/**
 * For every route of the OpenAPI document that takes an id (in the path, the query or the body),
 * another account's id answers 404 and changes nothing. The routes are read from the document,
 * so a new route that takes an id fails here until it is listed.
 */
for (const dialect of await dialects()) {
  describe(`tenancy on ${dialect}`, () => {
    let t: TestApp;
    let alice: { fileId: string; spaceId: string; spaceWithFiles: string };

    before(async () => {
      t = await startTestApp(dialect);
      const space = (await t.app.inject({ method: 'POST', url: '/v1/spaces', headers: { 'x-api-key': t.key }, payload: { name: 'private' } })).json();
      const file = (await upload(t, [{ name: 'secret.png', content: await redBlue() }], { fields: { workspace_id: space.id } })).json().files[0];
      alice = { fileId: file.fileId, spaceId: (await t.app.inject({ method: 'POST', url: '/v1/spaces', headers: { 'x-api-key': t.key }, payload: { name: 'empty' } })).json().id, spaceWithFiles: space.id };
    });
    after(() => t.close());

    /** Everything alice has, to compare before and after bob's attempts. */
    async function aliceState(): Promise<string> {
      const files = (await t.app.inject({ method: 'GET', url: '/v1/storage/files?limit=1000', headers: { 'x-api-key': t.key } })).json();
      const spaces = (await t.app.inject({ method: 'GET', url: '/v1/spaces', headers: { 'x-api-key': t.key } })).json();
      const bytes = (await t.app.inject({ method: 'GET', url: `/v1/storage/files/${alice.fileId}/content`, headers: { 'x-api-key': t.key } })).rawPayload;
      return JSON.stringify({ files, spaces, bytes: bytes.toString('base64') });
    }

    test("bob gets 404 for alice's ids on every route that takes one, and nothing changes", async () => {
      const bobSpace = (await t.app.inject({ method: 'GET', url: '/v1/spaces', headers: { 'x-api-key': t.otherKey } })).json().spaces[0].id;
      const bobFile = (await upload(t, [{ name: 'bob.png', content: await redBlue() }], { key: t.otherKey })).json().files[0].fileId;
      // Bob's attempts, per route of the document; each uses one of alice's ids where bob would put his own.
      const aliceKeyId = (await t.app.inject({ method: 'GET', url: '/v1/account', headers: { 'x-api-key': t.key } })).json().key.id;
      const bobLink = new URL((await t.app.inject({ method: 'POST', url: `/v1/storage/files/${bobFile}/links`, headers: { 'x-api-key': t.otherKey }, payload: { expires_in: 60 } })).json().url);
      const bobThumb = new URL((await t.app.inject({ method: 'POST', url: `/v1/storage/files/${bobFile}/links`, headers: { 'x-api-key': t.otherKey }, payload: { expires_in: 60, thumbnail_width: 32 } })).json().url);
      // A signed link is its own credential: bob's link pointed at alice's file is an altered link (403), never her file.
      const attempts: Record<string, Array<{ url: string; payload?: unknown; multipart?: boolean; status?: number }>> = {
        'POST /v1/storage/files/{fileId}/links': [{ url: `/v1/storage/files/${alice.fileId}/links`, payload: { expires_in: 60 } }, { url: `/v1/storage/files/${alice.fileId}/links`, payload: { expires_in: 60, thumbnail_width: 32 } }],
        'POST /v1/keys': [{ url: '/v1/keys', payload: { scope: 'read', workspace_id: alice.spaceWithFiles } }],
        'DELETE /v1/keys/{keyId}': [{ url: `/v1/keys/${aliceKeyId}` }],
        'GET /links/files/{fileId}/content': [{ url: (bobLink.pathname + bobLink.search).replace(bobFile, alice.fileId), status: 403 }],
        'GET /links/files/{fileId}/thumbnail': [{ url: (bobThumb.pathname + bobThumb.search).replace(bobFile, alice.fileId), status: 403 }],
        'GET /v1/storage/files': [{ url: `/v1/storage/files?workspace_id=${alice.spaceWithFiles}` }],
        'POST /v1/storage/files': [{ url: `/v1/storage/files?workspace_id=${alice.spaceWithFiles}`, multipart: true }, { url: '/v1/storage/files', multipart: true, payload: { workspace_id: alice.spaceId } }],
        'GET /v1/storage/files/{fileId}': [{ url: `/v1/storage/files/${alice.fileId}` }],
        'DELETE /v1/storage/files/{fileId}': [{ url: `/v1/storage/files/${alice.fileId}` }],
        'GET /v1/storage/files/{fileId}/content': [{ url: `/v1/storage/files/${alice.fileId}/content` }, { url: `/v1/storage/files/${alice.fileId}/content?download=true` }],
        'GET /v1/storage/files/{fileId}/thumbnail': [{ url: `/v1/storage/files/${alice.fileId}/thumbnail` }, { url: `/v1/storage/files/${alice.fileId}/thumbnail?width=64` }],
        'GET /v1/spaces/{id}': [{ url: `/v1/spaces/${alice.spaceId}` }],
        'DELETE /v1/spaces/{id}': [{ url: `/v1/spaces/${alice.spaceId}` }, { url: `/v1/spaces/${alice.spaceWithFiles}?force=true` }],
        'POST /v1/images/edits': [
          { url: '/v1/images/edits', payload: { prompt: 'invert', workspace_id: bobSpace, file_id: alice.fileId } },
          { url: '/v1/images/edits', payload: { prompt: 'invert', workspace_id: alice.spaceWithFiles, file_id: bobFile } },
          { url: '/v1/images/edits', payload: { prompt: `add ${alice.fileId} as a logo in the top left`, workspace_id: bobSpace, file_id: bobFile } },
          { url: '/v1/images/edits', payload: { prompt: 'invert', workspace_id: bobSpace, file_id: alice.fileId, dry_run: true } },
        ],
      };
      const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { parameters?: { in: string; name: string }[]; requestBody?: unknown }>> };
      const takesId = Object.entries(document.paths).flatMap(([route, methods]) =>
        Object.entries(methods)
          .filter(([method, op]) => route.includes('{') || op.parameters?.some((p) => /_id$|Id$/.test(p.name)) || (route.startsWith('/v1/') && method === 'post' && route !== '/v1/spaces'))
          .map(([method]) => `${method.toUpperCase()} ${route}`),
      );
      assert.deepEqual(takesId.sort(), Object.keys(attempts).sort(), 'every route that takes an id has attempts listed here');

      const before = await aliceState();
      const bobCount = async () => (await t.app.inject({ method: 'GET', url: '/v1/storage/files?limit=1000', headers: { 'x-api-key': t.otherKey } })).json().files.length as number;
      const bobFilesBefore = await bobCount();
      for (const [route, list] of Object.entries(attempts)) {
        for (const attempt of list) {
          const method = route.split(' ')[0] as 'GET' | 'POST' | 'DELETE';
          const res = attempt.multipart
            ? await upload(t, [{ name: 'sneaky.txt', content: 'x' }], { key: t.otherKey, query: attempt.url.replace('/v1/storage/files', ''), fields: attempt.payload as Record<string, string> | undefined })
            : await t.app.inject({ method, url: attempt.url, headers: { 'x-api-key': t.otherKey }, ...(attempt.payload ? { payload: attempt.payload as object } : {}) });
          assert.equal(res.statusCode, attempt.status ?? 404, `${route} ${attempt.url} ${JSON.stringify(attempt.payload ?? '')}: ${res.body}`);
          assert.equal(res.json().error.code, attempt.status === 403 ? 'forbidden' : 'not_found');
          assert.doesNotMatch(res.body, /secret\.png|private/, 'nothing of alice leaks into the message');
        }
      }
      assert.equal(await aliceState(), before, "alice's files, Spaces and bytes are untouched");
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/account', headers: { 'x-api-key': t.key } })).statusCode, 200, "alice's key still works");
      assert.equal(await bobCount(), bobFilesBefore, 'bob stored nothing');
    });
  });
}
