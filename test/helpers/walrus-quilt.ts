/**
 * The layout of a Walrus quilt (QuiltV1), as the network's encoder lays it out, for the stand-in
 * publisher and aggregator of the tests. Written from the protocol's description (walrus-core's
 * quilt encoding and the TypeScript SDK's reader), not copied:
 *
 * - The quilt is a matrix of `rows × columns` symbols, rows = primary source symbols and
 *   columns = secondary source symbols of the RS2 encoding for the shard count (n shards,
 *   f = ⌊(n−1)/3⌋: rows = n − 2f, columns = n − f), stored row by row.
 * - Every blob (patch) owns whole consecutive columns and is written down its columns, a symbol
 *   per row. Columns from 0 hold the quilt index; patches follow, sorted by identifier.
 * - A patch starts with its header (version u8 = 1, length u32 LE, mask u8), then the BCS of its
 *   identifier behind a u16 LE length, then (mask bit 0) its tags, then the bytes.
 * - The index is 0x01, a u32 LE length, then BCS `vector<{end_index u16, identifier, tags}>`.
 * - The symbol size is the smallest even size for which everything fits.
 * - A QuiltPatchId is the quilt's blobId (32 bytes) ‖ 0x01 ‖ start column u16 LE ‖ end u16 LE.
 */

export interface QuiltPatchInput {
  identifier: string;
  bytes: Buffer;
  tags?: Record<string, string>;
}

export interface QuiltPatchPlace {
  identifier: string;
  tags: Record<string, string>;
  startColumn: number;
  endColumn: number;
}

const INDEX_PREFIX_BYTES = 5;
const PATCH_HEADER_BYTES = 6;
const MAX_INDEX_COLUMNS = 10;
const MAX_SYMBOL_BYTES = 65_535;

export function sourceSymbols(nShards: number): { rows: number; columns: number } {
  const faulty = Math.floor((nShards - 1) / 3);
  return { rows: nShards - 2 * faulty, columns: nShards - faulty };
}

function uleb128(value: number): Buffer {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (value !== 0);
  return Buffer.from(bytes);
}

function bcsString(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([uleb128(bytes.length), bytes]);
}

function bcsTags(tags: Record<string, string>): Buffer {
  // A BCS map is a vector of pairs sorted by the keys' encoded bytes.
  const pairs = Object.entries(tags)
    .map(([k, v]) => [bcsString(k), bcsString(v)] as const)
    .sort((a, b) => Buffer.compare(a[0], b[0]));
  return Buffer.concat([uleb128(pairs.length), ...pairs.flat()]);
}

function u16(value: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(value);
  return b;
}

function encodeIndex(places: readonly QuiltPatchPlace[]): Buffer {
  const body = Buffer.concat([uleb128(places.length), ...places.flatMap((p) => [u16(p.endColumn), bcsString(p.identifier), bcsTags(p.tags)])]);
  const prefix = Buffer.alloc(INDEX_PREFIX_BYTES);
  prefix.writeUInt8(1, 0);
  prefix.writeUInt32LE(body.length, 1);
  return Buffer.concat([prefix, body]);
}

function patchPrefix(patch: QuiltPatchInput): Buffer {
  const identifier = bcsString(patch.identifier);
  const tags = patch.tags && Object.keys(patch.tags).length > 0 ? bcsTags(patch.tags) : undefined;
  const metadata = Buffer.concat([u16(identifier.length), identifier, ...(tags ? [u16(tags.length), tags] : [])]);
  const header = Buffer.alloc(PATCH_HEADER_BYTES);
  header.writeUInt8(1, 0);
  header.writeUInt32LE(metadata.length + patch.bytes.length, 1);
  header.writeUInt8(tags ? 1 : 0, 5);
  return Buffer.concat([header, metadata]);
}

function columnsFor(sizes: readonly number[], columnBytes: number): number {
  return sizes.reduce((n, size) => n + Math.ceil(size / columnBytes), 0);
}

/** Lays the patches out as the network does; answers the quilt's bytes and where each patch lies. */
export function encodeQuilt(patches: readonly QuiltPatchInput[], nShards: number): { quilt: Buffer; places: QuiltPatchPlace[] } {
  const { rows, columns } = sourceSymbols(nShards);
  const sorted = [...patches].sort((a, b) => (a.identifier < b.identifier ? -1 : a.identifier > b.identifier ? 1 : 0));
  const places: QuiltPatchPlace[] = sorted.map((p) => ({ identifier: p.identifier, tags: p.tags ?? {}, startColumn: 0, endColumn: 0 }));
  const prefixes = sorted.map(patchPrefix);
  const indexBytes = encodeIndex(places).length; // the index's size does not depend on the columns (u16 each)
  const sizes = [indexBytes, ...sorted.map((p, i) => prefixes[i]!.length + p.bytes.length)];
  if (sizes.length > columns) throw new Error(`a quilt of ${sorted.length} patches needs more than the ${columns} columns of ${nShards} shards`);
  // The smallest symbol size that fits everything (each patch owning whole columns), by
  // bisection: at ⌈largest / rows⌉ every patch fits in one column, so that size always fits.
  let low = Math.max(1, Math.ceil(indexBytes / (rows * MAX_INDEX_COLUMNS)), Math.ceil(INDEX_PREFIX_BYTES / rows));
  let high = Math.max(low, Math.ceil(Math.max(...sizes) / rows));
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (columnsFor(sizes, mid * rows) <= columns) high = mid;
    else low = mid + 1;
  }
  const symbol = Math.ceil(low / 2) * 2;
  if (symbol > MAX_SYMBOL_BYTES) throw new Error('quilt oversize: the symbol size would pass 65535 bytes');
  const columnBytes = symbol * rows;
  const rowBytes = symbol * columns;
  const quilt = Buffer.alloc(rowBytes * rows);
  const write = (parts: readonly Buffer[], startColumn: number): number => {
    let written = 0;
    for (const part of parts) {
      for (let at = 0; at < part.length; ) {
        const symbolIndex = Math.floor(written / symbol);
        const column = startColumn + Math.floor(symbolIndex / rows);
        const row = symbolIndex % rows;
        const within = written % symbol;
        const take = Math.min(symbol - within, part.length - at);
        part.copy(quilt, row * rowBytes + column * symbol + within, at, at + take);
        at += take;
        written += take;
      }
    }
    return Math.ceil(written / columnBytes);
  };
  let column = Math.ceil(indexBytes / columnBytes);
  sorted.forEach((patch, i) => {
    places[i]!.startColumn = column;
    column += write([prefixes[i]!, patch.bytes], column);
    places[i]!.endColumn = column;
  });
  write([encodeIndex(places)], 0);
  return { quilt, places };
}

/** The bytes of the patch in columns [start, end) of a quilt laid out for `nShards`. */
export function readPatch(quilt: Buffer, nShards: number, startColumn: number, endColumn: number): { identifier: string; bytes: Buffer } {
  const { rows, columns } = sourceSymbols(nShards);
  const symbol = quilt.length / (rows * columns);
  const rowBytes = symbol * columns;
  const pieces: Buffer[] = [];
  for (let column = startColumn; column < endColumn; column++) {
    for (let row = 0; row < rows; row++) pieces.push(quilt.subarray(row * rowBytes + column * symbol, row * rowBytes + (column + 1) * symbol));
  }
  const raw = Buffer.concat(pieces);
  const length = raw.readUInt32LE(1);
  const mask = raw.readUInt8(5);
  const identifierBytes = raw.readUInt16LE(PATCH_HEADER_BYTES);
  let at = PATCH_HEADER_BYTES + 2;
  const identifierField = raw.subarray(at, at + identifierBytes);
  at += identifierBytes;
  if (mask & 1) at += 2 + raw.readUInt16LE(at);
  // The BCS string's own length prefix is one byte for identifiers under 128 bytes, more above.
  let skip = 0;
  while (identifierField[skip]! & 0x80) skip++;
  const identifier = identifierField.subarray(skip + 1).toString('utf8');
  const end = PATCH_HEADER_BYTES + length;
  return { identifier, bytes: Buffer.from(raw.subarray(at, end)) };
}

export function encodeQuiltPatchId(quiltBlobId: Buffer, startColumn: number, endColumn: number): string {
  const raw = Buffer.alloc(37);
  quiltBlobId.copy(raw, 0);
  raw.writeUInt8(1, 32);
  raw.writeUInt16LE(startColumn, 33);
  raw.writeUInt16LE(endColumn, 35);
  return raw.toString('base64url');
}

/**
 * Bytes Walrus stores for a blob of this size (the protocol's cost model, as Mysten's SDK computes
 * it): every shard's primary and secondary sliver, plus every shard's copy of the metadata (two
 * 32-byte hashes per shard and the blob id). Storage is paid per MiB of this, per epoch.
 */
export function encodedBlobLength(unencoded: number, nShards: number): number {
  const { rows, columns } = sourceSymbols(nShards);
  let symbol = Math.floor((Math.max(unencoded, 1) - 1) / (rows * columns)) + 1;
  if (symbol % 2 === 1) symbol++;
  return nShards * (rows + columns) * symbol + nShards * (nShards * 64 + 32);
}
