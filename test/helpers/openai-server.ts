import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { pngHeaderOnly } from './images.ts';

/**
 * A local server speaking the two OpenAI protocols Tessera uses, so tests need no network:
 * the Images API (`POST /v1/images/edits`, multipart in, `{data: [{b64_json}]}` out) and Chat
 * Completions (`POST /v1/chat/completions` with `response_format: {type: 'json_schema'}`).
 * The image answer is a deterministic transformation of what it received (colours inverted),
 * so a test can tell from a stored file's pixels that they came through here, and in which order.
 */
export type ImageMode = 'invert' | 'rate_limited' | 'fail' | 'slow' | 'refuse' | 'no_data' | 'not_an_image' | 'truncated' | 'oversized';

export interface ImageCall {
  model: string;
  prompt: string;
  size: string | null;
  quality: string | null;
  width: number;
  height: number;
  format: string;
  /** The `mask` sent with the image (PNG, transparent where the model may paint), if any. */
  mask?: Buffer;
}

export class OpenAiTestServer {
  imageMode: ImageMode = 'invert';
  /** For 'slow': how long before answering. */
  delayMs = 2000;
  /** While set, image calls wait for it (to observe how many are in flight at once). */
  gate: Promise<void> | undefined;
  /** The size the answer comes back at (as models answer at their own sizes); default: as sent. */
  answerSize: { width: number; height: number } | undefined;
  readonly imageCalls: ImageCall[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** What the chat model answers: the message content for a request's user message. */
  chatAnswer: (prompt: string) => string | Promise<string> = () => '{"operations":[]}';
  readonly chatRequests: Array<Record<string, unknown>> = [];
  readonly authorizations: string[] = [];
  private server?: http.Server;

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v1`;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      void this.handle(req, res).catch((error: unknown) => {
        res.writeHead(599).end(String(error));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    this.authorizations.push(String(req.headers.authorization ?? ''));
    if (req.method === 'POST' && req.url === '/v1/images/edits') return this.imageEdit(req, body, res);
    if (req.method === 'POST' && req.url === '/v1/chat/completions') return this.chat(body, res);
    json(res, 404, { error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' } });
  }

  private async imageEdit(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse): Promise<void> {
    // The multipart body, parsed by the platform's own form-data reader.
    const form = await new Request('http://local/', { method: 'POST', headers: { 'content-type': String(req.headers['content-type']) }, body }).formData();
    const image = form.get('image');
    if (!(image instanceof Blob)) return json(res, 400, { error: { message: 'image is required', type: 'invalid_request_error' } });
    const bytes = Buffer.from(await image.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    // The documented rule for `mask`: a PNG with alpha, of the image's dimensions.
    const maskPart = form.get('mask');
    const mask = maskPart instanceof Blob ? Buffer.from(await maskPart.arrayBuffer()) : undefined;
    if (mask) {
      const m = await sharp(mask).metadata();
      if (m.format !== 'png' || !m.hasAlpha || m.width !== meta.width || m.height !== meta.height) {
        return json(res, 400, { error: { message: 'Invalid mask: it must be a PNG with an alpha channel and the same dimensions as the image.', type: 'invalid_request_error' } });
      }
    }
    this.imageCalls.push({ model: String(form.get('model')), prompt: String(form.get('prompt')), size: form.get('size') as string | null, quality: form.get('quality') as string | null, width: meta.width, height: meta.height, format: meta.format, ...(mask ? { mask } : {}) });
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (this.gate) await this.gate;
      switch (this.imageMode) {
        case 'rate_limited':
          return json(res, 429, { error: { message: 'Rate limit reached for images', type: 'requests', code: 'rate_limit_exceeded' } }, { 'retry-after': '7' });
        case 'fail':
          return json(res, 500, { error: { message: 'The server had an error processing your request.', type: 'server_error' } });
        case 'slow':
          await new Promise((resolve) => setTimeout(resolve, this.delayMs));
          break;
        case 'refuse':
          return json(res, 400, {
            error: { message: 'Your request was rejected as a result of our safety system.', type: 'image_generation_user_error', code: 'moderation_blocked' },
          });
        case 'no_data':
          return json(res, 200, { created: 1, data: [{ url: 'https://example.invalid/x.png' }] });
        case 'not_an_image':
          return json(res, 200, { created: 1, data: [{ b64_json: Buffer.from('this is not an image').toString('base64') }] });
        case 'truncated': {
          const whole = await sharp(bytes).negate({ alpha: false }).png().toBuffer();
          return json(res, 200, { created: 1, data: [{ b64_json: whole.subarray(0, Math.floor(whole.length / 2)).toString('base64') }] });
        }
        case 'oversized':
          return json(res, 200, { created: 1, data: [{ b64_json: pngHeaderOnly(20_000, 20_000).toString('base64') }] });
      }
      let answer = sharp(bytes).negate({ alpha: false });
      if (this.answerSize) answer = sharp(await answer.png().toBuffer()).resize({ ...this.answerSize, fit: 'fill' });
      const inverted = await answer.png().toBuffer();
      json(res, 200, { created: 1, data: [{ b64_json: inverted.toString('base64') }], usage: { total_tokens: 1 } });
    } finally {
      this.inFlight--;
    }
  }

  private async chat(body: Buffer, res: http.ServerResponse): Promise<void> {
    const request = JSON.parse(body.toString('utf8')) as { model: string; messages: Array<{ role: string; content: string }> };
    this.chatRequests.push(request);
    const prompt = request.messages.filter((m) => m.role === 'user').pop()?.content ?? '';
    const content = await this.chatAnswer(prompt);
    json(res, 200, {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: 1,
      model: request.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    });
  }
}

function json(res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
}
