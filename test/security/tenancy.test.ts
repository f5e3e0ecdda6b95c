import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { dialects } from '../helpers/databases.ts';
import { multipart, startTestApp, upload, type TestApp } from '../helpers/app.ts';
import { redBlue } from '../helpers/images.ts';

/**
 * For every route of the OpenAPI document that takes an id (in the path, the query or the body),
 * another account's id answers 404 and changes nothing. The routes are read from the document,
 * so a new route that takes an id fails here until it is listed.
 */
for (const dialect of await dialects()) {
  describe(`tenancy on ${dialect}`, () => {
    let t: TestApp;
    let alice: { fileId: string; spaceId: string; spaceWithFiles: string; jobId: string; webhookId: string };

    before(async () => {
      t = await startTestApp(dialect);
      const space = (await t.app.inject({ method: 'POST', url: '/v1/spaces', headers: { 'x-api-key': t.key }, payload: { name: 'private' } })).json();
      const file = (await upload(t, [{ name: 'secret.png', content: await redBlue() }], { fields: { workspace_id: space.id } })).json().files[0];
      const webhookId = (await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: { 'x-api-key': t.key }, payload: { url: 'https://hooks.example.com/private' } })).json().id;
      const job = (await t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-api-key': t.key, prefer: 'respond-async' }, payload: { prompt: 'invert', workspace_id: space.id, file_id: file.fileId } })).json();
      alice = { fileId: file.fileId, spaceId: (await t.app.inject({ method: 'POST', url: '/v1/spaces', headers: { 'x-api-key': t.key }, payload: { name: 'empty' } })).json().id, spaceWithFiles: space.id, jobId: job.id, webhookId };
    });
    after(() => t.close());

    /** Everything alice has, to compare before and after bob's attempts. */
    async function aliceState(): Promise<string> {
      const files = (await t.app.inject({ method: 'GET', url: '/v1/storage/files?limit=1000', headers: { 'x-api-key': t.key } })).json();
      const spaces = (await t.app.inject({ method: 'GET', url: '/v1/spaces', headers: { 'x-api-key': t.key } })).json();
      const bytes = (await t.app.inject({ method: 'GET', url: `/v1/storage/files/${alice.fileId}/content`, headers: { 'x-api-key': t.key } })).rawPayload;
      const webhooks = (await t.app.inject({ method: 'GET', url: '/v1/webhooks', headers: { 'x-api-key': t.key } })).json();
      const deliveries = (await t.app.inject({ method: 'GET', url: `/v1/webhooks/${alice.webhookId}/deliveries`, headers: { 'x-api-key': t.key } })).json();
      return JSON.stringify({ files, spaces, bytes: bytes.toString('base64'), webhooks, deliveries });
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
        'POST /v1/storage/files/raw': [{ url: `/v1/storage/files/raw?name=sneaky.txt&workspace_id=${alice.spaceWithFiles}`, payload: { sneaky: true } }],
        'GET /v1/storage/files/{fileId}': [{ url: `/v1/storage/files/${alice.fileId}` }],
        'DELETE /v1/storage/files/{fileId}': [{ url: `/v1/storage/files/${alice.fileId}` }],
        'GET /v1/storage/files/{fileId}/content': [{ url: `/v1/storage/files/${alice.fileId}/content` }, { url: `/v1/storage/files/${alice.fileId}/content?download=true` }],
        'GET /v1/storage/files/{fileId}/thumbnail': [{ url: `/v1/storage/files/${alice.fileId}/thumbnail` }, { url: `/v1/storage/files/${alice.fileId}/thumbnail?width=64` }],
        'GET /v1/spaces/{id}': [{ url: `/v1/spaces/${alice.spaceId}` }],
        'DELETE /v1/spaces/{id}': [{ url: `/v1/spaces/${alice.spaceId}` }, { url: `/v1/spaces/${alice.spaceWithFiles}?force=true` }],
        'PATCH /v1/spaces/{id}': [{ url: `/v1/spaces/${alice.spaceWithFiles}`, payload: { encryption: 'none' } }],
        'GET /v1/webhooks/{id}': [{ url: `/v1/webhooks/${alice.webhookId}` }],
        'DELETE /v1/webhooks/{id}': [{ url: `/v1/webhooks/${alice.webhookId}` }],
        'GET /v1/webhooks/{id}/deliveries': [{ url: `/v1/webhooks/${alice.webhookId}/deliveries` }],
        'POST /v1/images/edits': [
          { url: '/v1/images/edits', payload: { prompt: 'invert', workspace_id: bobSpace, file_id: alice.fileId } },
          { url: '/v1/images/edits', payload: { prompt: 'invert', workspace_id: alice.spaceWithFiles, file_id: bobFile } },
          { url: '/v1/images/edits', payload: { prompt: `add ${alice.fileId} as a logo in the top left`, workspace_id: bobSpace, file_id: bobFile } },
          { url: '/v1/images/edits', payload: { prompt: 'invert', workspace_id: bobSpace, file_id: alice.fileId, dry_run: true } },
        ],
        'GET /v1/images/edits/{id}': [{ url: `/v1/images/edits/${alice.jobId}` }],
      };
      const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { parameters?: { in: string; name: string }[]; requestBody?: unknown }>> };
      const takesId = Object.entries(document.paths).flatMap(([route, methods]) =>
        Object.entries(methods)
          .filter(([method, op]) => route.includes('{') || op.parameters?.some((p) => /_id$|Id$/.test(p.name)) || (route.startsWith('/v1/') && method === 'post' && route !== '/v1/spaces' && route !== '/v1/webhooks'))
          .map(([method]) => `${method.toUpperCase()} ${route}`),
      );
      assert.deepEqual(takesId.sort(), Object.keys(attempts).sort(), 'every route that takes an id has attempts listed here');

      const before = await aliceState();
      const bobCount = async () => (await t.app.inject({ method: 'GET', url: '/v1/storage/files?limit=1000', headers: { 'x-api-key': t.otherKey } })).json().files.length as number;
      const bobFilesBefore = await bobCount();
      for (const [route, list] of Object.entries(attempts)) {
        for (const attempt of list) {
          const method = route.split(' ')[0] as 'GET' | 'POST' | 'PATCH' | 'DELETE';
          const res = attempt.multipart
            ? await upload(t, [{ name: 'sneaky.txt', content: 'x' }], { key: t.otherKey, query: attempt.url.replace('/v1/storage/files', ''), fields: attempt.payload as Record<string, string> | undefined })
            : await t.app.inject({ method, url: attempt.url, headers: { 'x-api-key': t.otherKey }, ...(attempt.payload ? { payload: attempt.payload as object } : {}) });
          assert.equal(res.statusCode, attempt.status ?? 404, `${route} ${attempt.url} ${JSON.stringify(attempt.payload ?? '')}: ${res.body}`);
          assert.equal(res.json().error.code, attempt.status === 403 ? 'forbidden' : 'not_found');
          assert.doesNotMatch(res.body, /secret\.png|private/, 'nothing of alice leaks into the message');
        }
      }
      // The OpenAI form (by Bearer) and an edit job of the JSON form: another account's Space or file is 404 too.
      const form = multipart([{ name: 'sneaky.png', content: await redBlue(), type: 'image/png', field: 'image' }], { prompt: 'invert', workspace_id: alice.spaceWithFiles });
      const formRes = await t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { ...form.headers, authorization: `Bearer ${t.otherKey}` }, payload: form.body });
      assert.equal(formRes.statusCode, 404, formRes.body);
      assert.equal(formRes.json().error.code, 'not_found');
      const asyncRes = await t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-api-key': t.otherKey, prefer: 'respond-async' }, payload: { prompt: 'invert', workspace_id: bobSpace, file_id: alice.fileId } });
      assert.equal(asyncRes.statusCode, 404, asyncRes.body);
      assert.equal(await aliceState(), before, "alice's files, Spaces and bytes are untouched");
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/account', headers: { 'x-api-key': t.key } })).statusCode, 200, "alice's key still works");
      assert.equal(await bobCount(), bobFilesBefore, 'bob stored nothing');
    });
  });
}

type Scope = 'read' | 'write' | 'admin';
const SCOPES: Scope[] = ['read', 'write', 'admin'];
const RANK: Record<Scope, number> = { read: 0, write: 1, admin: 2 };

interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  payload?: object;
  multipart?: { files: Array<{ name: string; content: string | Buffer; field?: string }>; fields?: Record<string, string> };
}

/**
 * Every /v1 route of the OpenAPI document × every scope: each route names in the document the
 * scope it needs (its security requirement); a key of that scope or above gets the route's
 * success answer, a key below gets 403 `forbidden` naming the scope and changes nothing; the
 * admin key is sent as `Authorization: Bearer`, so every route takes it so. The routes are read
 * from the document, so a new route fails here until it is listed.
 * Then keys bound to a Space: they see and touch that Space only (404 for the rest).
 */
for (const dialect of await dialects()) {
  describe(`key scopes on ${dialect}`, () => {
    let t: TestApp;
    const keys = {} as Record<Scope, string>;
    let picture: string;
    let spaceId: string;

    before(async () => {
      t = await startTestApp(dialect);
      for (const scope of SCOPES) keys[scope] = (await t.context.keys.create('alice', { scope, label: `${scope} key` })).key;
      picture = (await upload(t, [{ name: 'p.png', content: await redBlue(), type: 'image/png' }])).json().files[0].fileId;
      spaceId = (await t.app.inject({ method: 'GET', url: '/v1/spaces', headers: { 'x-api-key': t.key } })).json().spaces[0].id;
    });
    after(() => t.close());

    /** The key in x-api-key, or as OpenAI-style clients send it (`Authorization: Bearer`). */
    const send = (call: Call, key: string, by: 'x-api-key' | 'bearer' = 'x-api-key'): Promise<LightMyRequestResponse> => {
      const auth = by === 'bearer' ? { authorization: `Bearer ${key}` } : { 'x-api-key': key };
      if (call.multipart) {
        const { body, headers } = multipart(call.multipart.files, call.multipart.fields);
        return t.app.inject({ method: call.method, url: call.url, headers: { ...headers, ...auth }, payload: body });
      }
      return t.app.inject({ method: call.method, url: call.url, headers: auth, ...(call.payload ? { payload: call.payload } : {}) });
    };
    const admin = (call: Call) => send(call, t.key);
    let n = 0;
    const freshFile = async () => (await upload(t, [{ name: `f${++n}.txt`, content: `file ${n}` }])).json().files[0].fileId as string;
    const freshSpace = async () => (await admin({ method: 'POST', url: '/v1/spaces', payload: { name: `s${++n}` } })).json().id as string;
    const freshKey = async () => (await t.context.keys.create('alice', { scope: 'read' })).id;
    const freshWebhook = async () => {
      // At most TESSERA_WEBHOOK_MAX_ENDPOINTS: the ones made for earlier tries go first.
      for (const w of (await admin({ method: 'GET', url: '/v1/webhooks' })).json().webhooks) await admin({ method: 'DELETE', url: `/v1/webhooks/${w.id}` });
      return (await admin({ method: 'POST', url: '/v1/webhooks', payload: { url: `https://hooks.example.com/${++n}` } })).json().id as string;
    };
    const state = async () => JSON.stringify([(await admin({ method: 'GET', url: '/v1/storage/files?limit=1000' })).json(), (await admin({ method: 'GET', url: '/v1/spaces' })).json(), (await admin({ method: 'GET', url: '/v1/keys' })).json(), (await admin({ method: 'GET', url: '/v1/webhooks' })).json()]);

    /** For every route, a call that succeeds for a key allowed to make it (made fresh for each try). */
    const calls: Record<string, () => Promise<Call>> = {
      'GET /v1/storage/files': async () => ({ method: 'GET', url: '/v1/storage/files' }),
      'POST /v1/storage/files': async () => ({ method: 'POST', url: '/v1/storage/files', multipart: { files: [{ name: `u${++n}.txt`, content: 'up' }] } }),
      'POST /v1/storage/files/raw': async () => ({ method: 'POST', url: `/v1/storage/files/raw?name=r${++n}.json`, payload: { up: true } }),
      'GET /v1/storage/files/{fileId}': async () => ({ method: 'GET', url: `/v1/storage/files/${picture}` }),
      'DELETE /v1/storage/files/{fileId}': async () => ({ method: 'DELETE', url: `/v1/storage/files/${await freshFile()}` }),
      'GET /v1/storage/files/{fileId}/content': async () => ({ method: 'GET', url: `/v1/storage/files/${picture}/content` }),
      'GET /v1/storage/files/{fileId}/thumbnail': async () => ({ method: 'GET', url: `/v1/storage/files/${picture}/thumbnail?width=32` }),
      'POST /v1/storage/files/{fileId}/links': async () => ({ method: 'POST', url: `/v1/storage/files/${picture}/links`, payload: { expires_in: 60 } }),
      'POST /v1/spaces': async () => ({ method: 'POST', url: '/v1/spaces', payload: { name: `new ${++n}` } }),
      'GET /v1/spaces': async () => ({ method: 'GET', url: '/v1/spaces' }),
      'GET /v1/spaces/{id}': async () => ({ method: 'GET', url: `/v1/spaces/${spaceId}` }),
      'DELETE /v1/spaces/{id}': async () => ({ method: 'DELETE', url: `/v1/spaces/${await freshSpace()}` }),
      'PATCH /v1/spaces/{id}': async () => ({ method: 'PATCH', url: `/v1/spaces/${await freshSpace()}`, payload: { encryption: 'none' } }),
      'POST /v1/images/edits': async () => ({ method: 'POST', url: '/v1/images/edits', payload: { prompt: 'invert', workspace_id: spaceId, file_id: picture } }),
      'GET /v1/images/edits/{id}': async () => ({
        method: 'GET',
        url: `/v1/images/edits/${(await t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-api-key': t.key, prefer: 'respond-async' }, payload: { prompt: 'invert', workspace_id: spaceId, file_id: picture } })).json().id}`,
      }),
      'GET /v1/images/operations': async () => ({ method: 'GET', url: '/v1/images/operations' }),
      'GET /v1/account': async () => ({ method: 'GET', url: '/v1/account' }),
      'POST /v1/keys': async () => ({ method: 'POST', url: '/v1/keys', payload: { scope: 'read' } }),
      'GET /v1/keys': async () => ({ method: 'GET', url: '/v1/keys' }),
      'DELETE /v1/keys/{keyId}': async () => ({ method: 'DELETE', url: `/v1/keys/${await freshKey()}` }),
      'POST /v1/webhooks': async () => ({ method: 'POST', url: '/v1/webhooks', payload: { url: `https://hooks.example.com/${++n}` } }),
      'GET /v1/webhooks': async () => ({ method: 'GET', url: '/v1/webhooks' }),
      'GET /v1/webhooks/{id}': async () => ({ method: 'GET', url: `/v1/webhooks/${await freshWebhook()}` }),
      'DELETE /v1/webhooks/{id}': async () => ({ method: 'DELETE', url: `/v1/webhooks/${await freshWebhook()}` }),
      'GET /v1/webhooks/{id}/deliveries': async () => ({ method: 'GET', url: `/v1/webhooks/${await freshWebhook()}/deliveries` }),
    };

    test('every route × every scope: allowed or refused as the OpenAPI document says', async () => {
      const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { security?: Array<Record<string, string[]>> }>> };
      const documented = Object.entries(document.paths)
        .filter(([route]) => route.startsWith('/v1/'))
        .flatMap(([route, methods]) => Object.entries(methods).map(([method, op]) => ({ route: `${method.toUpperCase()} ${route}`, needs: op.security?.[0]?.apiKey?.[0] as Scope })));
      assert.deepEqual(documented.map((d) => d.route).sort(), Object.keys(calls).sort(), 'every /v1 route has a call listed here');
      const matrix: string[] = [];
      for (const { route, needs } of documented) {
        assert.ok(SCOPES.includes(needs), `${route} documents the scope it needs: ${needs}`);
        for (const scope of SCOPES) {
          const call = await calls[route]!();
          const before = await state();
          // The admin key by Bearer: it is taken on every route, as x-api-key is.
          const res = await send(call, keys[scope], scope === 'admin' ? 'bearer' : 'x-api-key');
          if (RANK[scope] >= RANK[needs]) {
            assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${route} with a ${scope} key: ${res.statusCode} ${res.body.slice(0, 200)}`);
          } else {
            assert.equal(res.statusCode, 403, `${route} with a ${scope} key: ${res.body.slice(0, 200)}`);
            assert.equal(res.json().error.code, 'forbidden');
            assert.match(res.json().error.message, new RegExp(`needs a "${needs}" key`));
            assert.equal(res.json().error.required_scope, needs);
            assert.equal(await state(), before, `${route} refused to a ${scope} key changed nothing`);
          }
          matrix.push(`${route} ${scope}:${res.statusCode}`);
        }
      }
      assert.equal(matrix.length, Object.keys(calls).length * 3);
    });

    test('a read-only key lists and downloads but cannot upload, edit or delete', async () => {
      const read = keys.read;
      assert.equal((await send({ method: 'GET', url: `/v1/storage/files/${picture}/content` }, read)).statusCode, 200);
      const refused = await upload(t, [{ name: 'no.txt', content: 'no' }], { key: read });
      assert.equal(refused.statusCode, 403);
      assert.match(refused.json().error.message, /scope is "read"; POST \/v1\/storage\/files needs a "write" key/);
    });

    test('a key bound to a Space sees and touches only that Space', async () => {
      const mine = await freshSpace();
      const other = await freshSpace();
      const inMine = (await upload(t, [{ name: 'mine.png', content: await redBlue(), type: 'image/png' }], { fields: { workspace_id: mine } })).json().files[0].fileId;
      const inOther = (await upload(t, [{ name: 'other.png', content: await redBlue('jpeg'), type: 'image/jpeg' }], { fields: { workspace_id: other } })).json().files[0].fileId;
      const bound = (await admin({ method: 'POST', url: '/v1/keys', payload: { scope: 'admin', workspace_id: mine } })).json();
      assert.equal(bound.workspace_id, mine);
      const key = bound.key as string;
      const as = (call: Call) => send(call, key);
      const before = await state();

      const listed = (await as({ method: 'GET', url: '/v1/storage/files' })).json().files.map((f: { fileId: string }) => f.fileId);
      assert.deepEqual(listed, [inMine], 'the list holds its Space only');
      assert.deepEqual((await as({ method: 'GET', url: '/v1/spaces' })).json().spaces.map((s: { id: string }) => s.id), [mine]);
      assert.equal((await as({ method: 'GET', url: `/v1/storage/files/${inMine}/content` })).statusCode, 200);
      const notFound: Call[] = [
        { method: 'GET', url: `/v1/storage/files?workspace_id=${other}` },
        { method: 'GET', url: `/v1/storage/files/${inOther}` },
        { method: 'GET', url: `/v1/storage/files/${inOther}/content` },
        { method: 'GET', url: `/v1/storage/files/${inOther}/thumbnail` },
        { method: 'POST', url: `/v1/storage/files/${inOther}/links`, payload: { expires_in: 60 } },
        { method: 'DELETE', url: `/v1/storage/files/${inOther}` },
        { method: 'GET', url: `/v1/spaces/${other}` },
        { method: 'DELETE', url: `/v1/spaces/${other}?force=true` },
        { method: 'PATCH', url: `/v1/spaces/${other}`, payload: { encryption: 'none' } },
        { method: 'POST', url: '/v1/storage/files', multipart: { files: [{ name: 'x.txt', content: 'x' }], fields: { workspace_id: other } } },
        { method: 'POST', url: '/v1/images/edits', payload: { prompt: 'invert', workspace_id: mine, file_id: inOther } },
        { method: 'POST', url: '/v1/images/edits', payload: { prompt: 'invert', workspace_id: other, file_id: inMine } },
        { method: 'POST', url: '/v1/images/edits', payload: { prompt: `add ${inOther} as a logo in the top left`, workspace_id: mine, file_id: inMine, dry_run: true } },
        { method: 'POST', url: '/v1/keys', payload: { scope: 'read', workspace_id: other } },
        { method: 'GET', url: `/v1/images/edits/${(await t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-api-key': t.key, prefer: 'respond-async' }, payload: { prompt: 'invert', workspace_id: other, file_id: inOther } })).json().id}` },
        { method: 'POST', url: '/v1/images/edits', multipart: { files: [{ name: 'y.png', content: await redBlue(), field: 'image' }], fields: { prompt: 'invert', workspace_id: other } } },
      ];
      for (const call of notFound) {
        const res = await as(call);
        assert.equal(res.statusCode, 404, `${call.method} ${call.url} ${JSON.stringify(call.payload ?? '')}: ${res.body}`);
        assert.equal(res.json().error.code, 'not_found');
      }
      for (const call of [{ method: 'POST', url: '/v1/spaces', payload: { name: 'more' } }, { method: 'DELETE', url: `/v1/spaces/${mine}` }, { method: 'PATCH', url: `/v1/spaces/${mine}`, payload: { encryption: 'none' } }] as Call[]) {
        const res = await as(call);
        assert.equal(res.statusCode, 403, res.body);
        assert.match(res.json().error.message, /bound to one Space/);
      }
      assert.equal(await state(), before, 'nothing outside its Space changed');

      // What it does, it does in its Space.
      const uploaded = await upload(t, [{ name: 'new.txt', content: 'new' }], { key });
      assert.equal(uploaded.json().files[0].workspaceId, mine, 'uploads without workspace_id land in its Space');
      const made = (await as({ method: 'POST', url: '/v1/keys', payload: { scope: 'read' } })).json();
      assert.equal(made.workspace_id, mine, 'keys it makes are bound to its Space too');
      assert.deepEqual((await send({ method: 'GET', url: '/v1/spaces' }, made.key)).json().spaces.map((s: { id: string }) => s.id), [mine]);
      assert.equal((await as({ method: 'GET', url: '/v1/account' })).json().key.workspace_id, mine);
    });
  });
}
