import { randomBytes } from 'node:crypto';

/**
 * Prefixed, time-sortable identifiers: `<prefix>_` + 10 Crockford base32 characters of the
 * millisecond timestamp + 16 of randomness (a ULID). Within one process, IDs minted in the same
 * millisecond increase, so sorting by ID agrees with creation order.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export type IdPrefix = 'file' | 'spc' | 'key' | 'acc' | 'edit';

let lastTime = -1;
let lastRandom = new Uint8Array(10);

export function newId(prefix: IdPrefix, now = Date.now()): string {
  if (now <= lastTime) {
    incrementRandom(lastRandom);
    now = lastTime;
  } else {
    lastTime = now;
    lastRandom = new Uint8Array(randomBytes(10));
    lastRandom[0]! &= 0x7f; // leave headroom so increments never overflow
  }
  return `${prefix}_${encodeTime(now)}${encodeRandom(lastRandom)}`;
}

export function isId(prefix: IdPrefix, value: string): boolean {
  return value.length === prefix.length + 27 && value.startsWith(`${prefix}_`) && /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value.slice(prefix.length + 1));
}

function encodeTime(time: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[time % 32]! + out;
    time = Math.floor(time / 32);
  }
  return out;
}

function encodeRandom(bytes: Uint8Array): string {
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let out = '';
  for (let i = 0; i < 16; i++) {
    out = ALPHABET[Number(bits & 31n)]! + out;
    bits >>= 5n;
  }
  return out;
}

function incrementRandom(bytes: Uint8Array): void {
  for (let i = bytes.length - 1; i >= 0; i--) {
    if (bytes[i]! < 0xff) {
      bytes[i]! += 1;
      return;
    }
    bytes[i] = 0;
  }
}
