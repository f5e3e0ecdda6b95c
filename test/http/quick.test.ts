import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dialects } from '../helpers/databases.ts';
import { startTestApp, upload } from '../helpers/app.ts';

for (const dialect of await dialects()) {
  test(`smoke on ${dialect}`, async () => {
    const t = await startTestApp(dialect);
    try {
      const res = await upload(t, [{ name: 'a.txt', content: 'abc' }]);
      assert.equal(res.statusCode, 201, res.body);
      const list = await t.app.inject({ url: '/v1/storage/files', headers: { 'x-api-key': t.key } });
      assert.equal(list.json().files.length, 1);
    } finally {
      await t.close();
    }
  });
}
