import { createHmac } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

/**
 * Sending one webhook request, as the Standard Webhooks specification says: the body signed with
 * HMAC-SHA256 over `${webhook-id}.${webhook-timestamp}.${body}`, under the secret's decoded bytes,
 * sent as `v1,<base64>`. The receiver's answer is read only for its status (and Retry-After): no
 * byte of its body is kept or shown, so an endpoint cannot be used to read what it answers.
 */

/** The secret as the endpoint's owner sees it: `whsec_` and the base64 of the key bytes. */
export const SECRET_PREFIX = 'whsec_';

export function formatSecret(key: Buffer): string {
  return `${SECRET_PREFIX}${key.toString('base64')}`;
}

export function signWebhook(key: Buffer, id: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/**
 * Addresses a webhook may not reach unless TESSERA_WEBHOOK_ALLOW_PRIVATE: loopback, private
 * networks, link-local (cloud metadata services live there), carrier-grade NAT, benchmarking,
 * multicast and reserved ranges, and their IPv6 equivalents (IPv4-mapped ones are checked as IPv4).
 */
const PRIVATE = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 3],
] as const) PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32]] as const) PRIVATE.addSubnet(network, prefix, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isPrivateAddress(mapped);
  const family = net.isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Why a URL cannot be a webhook endpoint, or undefined when it can. Names that resolve to a
 * private address are refused when a request is made (the address it connects to is checked),
 * since what a name resolves to can change after it is registered.
 */
export function webhookUrlProblem(raw: string, allowPrivate: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http:// or https:// URL';
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.hash) return 'must not carry a #fragment';
  if (allowPrivate) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) !== 0 ? isPrivateAddress(host) : host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) {
    return `points at a private or local address (${host}), which this server does not deliver to (TESSERA_WEBHOOK_ALLOW_PRIVATE)`;
  }
  return undefined;
}

export interface SendOutcome {
  /** The receiver's status; null when it did not answer. */
  statusCode: number | null;
  /** Why there was no answer (or, with a status, nothing). */
  error: string | null;
  durationMs: number;
  /** The receiver's Retry-After, in milliseconds, when it sent one. */
  retryAfterMs: number | undefined;
}

const MAX_ERROR_LENGTH = 500;

/** One POST of `body` to `url`; never throws. */
export function sendWebhook(url: string, headers: Record<string, string>, body: string, options: { timeoutMs: number; allowPrivate: boolean }): Promise<SendOutcome> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null, retryAfterMs?: number): SendOutcome => ({
    statusCode,
    error: error && error.slice(0, MAX_ERROR_LENGTH),
    durationMs: Math.round(performance.now() - started),
    retryAfterMs,
  });
  const problem = webhookUrlProblem(url, options.allowPrivate);
  if (problem) return Promise.resolve(done(null, `the URL ${problem}`));
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Tessera-Webhooks/1', ...headers },
        // The address actually connected to is checked, whatever the name resolved to.
        lookup: options.allowPrivate ? undefined : guardedLookup,
        agent: false,
      },
      (response) => {
        const statusCode = response.statusCode ?? 0;
        const retryAfterMs = retryAfterOf(response.headers['retry-after']);
        // The body is not read: the connection is closed as soon as the status is known.
        response.destroy();
        finish(done(statusCode, statusCode >= 200 && statusCode < 300 ? null : `answered ${statusCode}`, retryAfterMs));
      },
    );
    const timer = setTimeout(() => {
      request.destroy(new Error(`no answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    request.on('error', (error) => finish(done(null, error.message || String(error))));
    request.end(body);
  });
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((a) => isPrivateAddress(a.address));
    if (refused) return callback(Object.assign(new Error(`${hostname} resolves to ${refused.address}, a private or local address, which this server does not deliver to (TESSERA_WEBHOOK_ALLOW_PRIVATE)`), { code: 'EPRIVATE' }), []);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

function retryAfterOf(header: string | undefined): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
