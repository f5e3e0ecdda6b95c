import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  /** What the receiver answered. */
  status: number;
  /** The body as the published Standard Webhooks library verified it; undefined if it did not. */
  verified: unknown;
  verifyError: string | undefined;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Verify every request with this secret (`whsec_…`), as a receiver would. */
  secret: string | undefined;
  /**
   * The answers to give, in turn (then 200 for the rest): a status, or `hang` to answer only
   * after `hangMs` (past the sender's timeout).
   */
  answers: Array<number | 'hang'>;
  hangMs: number;
  /** A pause before each answer, so concurrent senders overlap. */
  delayMs: number;
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A webhook receiver on 127.0.0.1, as a customer would run one: it verifies each request with the
 * published `standardwebhooks` package (the reference implementation of the specification) and
 * answers what the test asks.
 */
export async function startReceiver(): Promise<WebhookReceiver> {
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    secret: undefined,
    answers: [],
    hangMs: 2000,
    delayMs: 0,
    waitFor(count, timeoutMs = 10_000) {
      if (receiver.received.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`waited ${timeoutMs} ms for ${count} webhooks, got ${receiver.received.length}`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
      let verified: unknown;
      let verifyError: string | undefined;
      if (receiver.secret) {
        try {
          verified = new Webhook(receiver.secret).verify(body, headers);
        } catch (error) {
          verifyError = (error as Error).message;
        }
      }
      const answer = receiver.answers.shift() ?? 200;
      const status = answer === 'hang' ? 200 : answer;
      receiver.received.push({ headers, body, status, verified, verifyError });
      for (const waiter of waiters.filter((w) => receiver.received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      setTimeout(() => response.writeHead(status, { 'content-type': 'text/plain' }).end('ok'), answer === 'hang' ? receiver.hangMs : receiver.delayMs).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
