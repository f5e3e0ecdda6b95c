import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialects } from '../helpers/databases.ts';
import { errorOf, startTestApp, upload, type TestApp } from '../helpers/app.ts';

for (const dialect of await dialects()) {
  describe(`spaces routes on ${dialect}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { TESSERA_MAX_JSON_BYTES: '2048' });
    });
    after(() => t.close());

    const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, key = t.key) =>
      t.app.inject({ method, url, headers: { 'x-api-key': key }, ...(payload === undefined ? {} : { payload: payload as object }) });

    test('every account starts with a default Space', async () => {
      const res = await call('GET', '/v1/spaces');
      assert.equal(res.statusCode, 200);
      const spaces = res.json().spaces as Array<{ id: string; name: string; createdAt: string }>;
      assert.deepEqual(spaces.map((s) => s.name), ['default']);
      assert.match(spaces[0]!.id, /^spc_[0-9A-Z]{26}$/);
      const file = (await upload(t, [{ name: 'x.txt', content: 'to default' }])).json().files[0];
      assert.equal(file.workspaceId, spaces[0]!.id, 'uploads without workspace_id land in default');
    });

    test('create, get, list and delete a Space', async () => {
      const created = await call('POST', '/v1/spaces', { name: '  Holiday 2026  ' });
      assert.equal(created.statusCode, 201, created.body);
      const space = created.json();
      assert.equal(space.name, 'Holiday 2026');
      assert.match(space.createdAt, /\.\d{3}Z$/);
      assert.deepEqual((await call('GET', `/v1/spaces/${space.id}`)).json(), space);
      assert.ok((await call('GET', '/v1/spaces')).json().spaces.some((s: { id: string }) => s.id === space.id));
      assert.equal((await call('DELETE', `/v1/spaces/${space.id}`)).statusCode, 204);
      assert.equal((await call('GET', `/v1/spaces/${space.id}`)).statusCode, 404);
      assert.equal((await call('DELETE', `/v1/spaces/${space.id}`)).statusCode, 404);
    });

    test('names are unique per account, not across accounts', async () => {
      assert.equal((await call('POST', '/v1/spaces', { name: 'shared-name' })).statusCode, 201);
      const again = await call('POST', '/v1/spaces', { name: 'shared-name' });
      assert.equal(again.statusCode, 409);
      assert.equal(errorOf(again).code, 'conflict');
      assert.equal((await call('POST', '/v1/spaces', { name: 'shared-name' }, t.otherKey)).statusCode, 201);
      assert.equal((await call('POST', '/v1/spaces', { name: 'default' })).statusCode, 409);
    });

    test('bad bodies are 400, 413 or 415 and create nothing', async () => {
      const count = async () => (await call('GET', '/v1/spaces')).json().spaces.length;
      const before = await count();
      for (const body of [{}, { name: '' }, { name: '   ' }, { name: 42 }, { name: 'a'.repeat(101) }, { name: 'ok', extra: true }, { name: 'tab\tname' }]) {
        const res = await call('POST', '/v1/spaces', body);
        assert.equal(res.statusCode, 400, JSON.stringify(body));
        assert.equal(errorOf(res).code, 'invalid_request');
      }
      const malformed = await t.app.inject({ method: 'POST', url: '/v1/spaces', headers: { 'x-api-key': t.key, 'content-type': 'application/json' }, payload: '{"name": ' });
      assert.equal(malformed.statusCode, 400);
      assert.equal(errorOf(malformed).code, 'invalid_request');
      const text = await t.app.inject({ method: 'POST', url: '/v1/spaces', headers: { 'x-api-key': t.key, 'content-type': 'text/plain' }, payload: 'name=x' });
      assert.equal(text.statusCode, 415);
      assert.equal(errorOf(text).code, 'unsupported_media_type');
      // Multipart is parsed by the upload and the edit form only: here it is a body type like any other.
      const form = await t.app.inject({ method: 'POST', url: '/v1/spaces', headers: { 'x-api-key': t.key, 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--x--\r\n' });
      assert.equal(form.statusCode, 415);
      assert.equal(errorOf(form).code, 'unsupported_media_type');
      const huge = await call('POST', '/v1/spaces', { name: 'x', pad: 'y'.repeat(4096) });
      assert.equal(huge.statusCode, 413);
      assert.equal(errorOf(huge).code, 'payload_too_large');
      assert.equal(await count(), before);
    });

    test('a Space with files is kept unless forced; default is never deleted', async () => {
      const space = (await call('POST', '/v1/spaces', { name: 'full' })).json();
      const file = (await upload(t, [{ name: 'keep.txt', content: `keep ${Math.random()}` }], { fields: { workspace_id: space.id } })).json().files[0];
      const refused = await call('DELETE', `/v1/spaces/${space.id}`);
      assert.equal(refused.statusCode, 409);
      assert.equal((await call('GET', `/v1/storage/files/${file.fileId}`)).statusCode, 200);
      assert.equal((await call('DELETE', `/v1/spaces/${space.id}?force=true`)).statusCode, 204);
      assert.equal((await call('GET', `/v1/storage/files/${file.fileId}`)).statusCode, 404);
      const defaultSpace = (await call('GET', '/v1/spaces')).json().spaces.find((s: { name: string }) => s.name === 'default');
      const noDefault = await call('DELETE', `/v1/spaces/${defaultSpace.id}?force=true`);
      assert.equal(noDefault.statusCode, 409);
    });

    test('encryption: sealed unless chosen; none is kept and reported; a change is checked; on this engine the bytes are the same either way', async () => {
      const sealed = (await call('POST', '/v1/spaces', { name: 'sealed by default' })).json();
      assert.equal(sealed.encryption, 'sealed');
      const open = await call('POST', '/v1/spaces', { name: 'public one', encryption: 'none' });
      assert.equal(open.statusCode, 201, open.body);
      assert.equal(open.json().encryption, 'none');
      assert.deepEqual((await call('GET', `/v1/spaces/${open.json().id}`)).json(), open.json());
      const listed = (await call('GET', '/v1/spaces')).json().spaces as Array<{ name: string; encryption: string }>;
      assert.equal(listed.find((s) => s.name === 'default')?.encryption, 'sealed');
      assert.equal(listed.find((s) => s.name === 'public one')?.encryption, 'none');

      const count = async () => (await call('GET', '/v1/spaces')).json().spaces.length;
      const before = await count();
      for (const body of [{ name: 'x1', encryption: 'plain' }, { name: 'x2', encryption: null }, { name: 'x3', encryption: true }]) {
        const res = await call('POST', '/v1/spaces', body);
        assert.equal(res.statusCode, 400, JSON.stringify(body));
        assert.equal(errorOf(res).code, 'invalid_request');
      }
      assert.equal(await count(), before);
      for (const body of [{}, { encryption: 'off' }, { encryption: 'none', name: 'renamed' }]) {
        const res = await call('PATCH', `/v1/spaces/${sealed.id}`, body);
        assert.equal(res.statusCode, 400, JSON.stringify(body));
        assert.equal(errorOf(res).code, 'invalid_request');
      }
      assert.equal((await call('GET', `/v1/spaces/${sealed.id}`)).json().encryption, 'sealed', 'a refused change changes nothing');
      assert.equal((await call('PATCH', '/v1/spaces/spc_01JDFX4Q3M9Z7K8R2T5V6W7X8Y', { encryption: 'none' })).statusCode, 404);
      assert.equal((await call('PATCH', `/v1/spaces/${sealed.id}`, { encryption: 'none' }, t.otherKey)).statusCode, 404);
      assert.equal((await call('GET', `/v1/spaces/${sealed.id}`)).json().encryption, 'sealed');
      const bound = await t.context.keys.create('alice', { scope: 'admin', spaceId: sealed.id });
      const byBound = await call('PATCH', `/v1/spaces/${sealed.id}`, { encryption: 'none' }, bound.key);
      assert.equal(byBound.statusCode, 403, 'a key bound to the Space cannot change how it is stored');
      assert.equal(errorOf(byBound).code, 'forbidden');
      const changed = await call('PATCH', `/v1/spaces/${sealed.id}`, { encryption: 'none' });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.deepEqual(changed.json(), { ...sealed, encryption: 'none' });

      // The local engine keeps every byte on this machine: the same content in a public and a
      // private Space is one blob, stored as it came.
      const content = `same in both ${Math.random()}`;
      const defaultId = (await call('GET', '/v1/spaces')).json().spaces.find((s: { name: string }) => s.name === 'default').id as string;
      const inSpace = async (space: string) => (await upload(t, [{ name: 'same.txt', content }], { fields: { workspace_id: space } })).json().files[0];
      const [a, b] = [await inSpace(open.json().id), await inSpace(defaultId)];
      assert.equal(a.metadata.quiltPatchId, b.metadata.quiltPatchId);
    });

    test("another account's Space is 404 everywhere", async () => {
      const space = (await call('POST', '/v1/spaces', { name: 'private' })).json();
      assert.equal((await call('GET', `/v1/spaces/${space.id}`, undefined, t.otherKey)).statusCode, 404);
      assert.equal((await call('DELETE', `/v1/spaces/${space.id}`, undefined, t.otherKey)).statusCode, 404);
      assert.equal((await call('GET', `/v1/storage/files?workspace_id=${space.id}`, undefined, t.otherKey)).statusCode, 404);
      const res = await upload(t, [{ name: 'x.txt', content: 'x' }], { key: t.otherKey, fields: { workspace_id: space.id } });
      assert.equal(res.statusCode, 404);
      assert.ok(!(await call('GET', '/v1/spaces', undefined, t.otherKey)).json().spaces.some((s: { id: string }) => s.id === space.id));
      assert.equal((await call('GET', `/v1/spaces/${space.id}`)).statusCode, 200);
    });
  });
}
