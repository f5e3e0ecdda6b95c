// Upload a picture, edit it with a prompt, download the result.
//   TESSERA_URL=http://127.0.0.1:8080 TESSERA_API_KEY=tsk_… npm exec -- node client/examples/edit-a-picture.ts beach.jpg edited.jpg
import { TesseraClient, TesseraError } from '../src/index.ts';

const [picture, output] = process.argv.slice(2);
if (!picture || !output) throw new Error('usage: edit-a-picture.ts <picture> <output>');

const client = new TesseraClient({ baseUrl: process.env.TESSERA_URL ?? 'http://127.0.0.1:8080', apiKey: process.env.TESSERA_API_KEY ?? '' });

try {
  const [file] = await client.files.upload(picture);
  const edit = await client.images.edit({
    prompt: 'rotate 90 degrees, make it black and white and add a red 10px border',
    fileId: file!.fileId,
    workspaceId: file!.workspaceId,
  });
  console.log(`applied ${edit.operations.map((o) => o.op).join(', ')} → ${edit.file_id} (${edit.width}x${edit.height})`);
  await client.files.downloadTo(edit.file_id!, output);
  for await (const f of client.files.listAll()) console.log(`${f.fileId}  ${f.name}`);
} catch (error) {
  if (error instanceof TesseraError) console.error(`${error.status} ${error.code}: ${error.message}`);
  process.exitCode = 1;
}
