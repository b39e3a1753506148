// Opaque keyset page tokens: the cursor (sort values + tie-break) and a
// fingerprint of the other list parameters, signed with a per-database secret
// so a tampered or replayed-with-other-parameters token is INVALID_ARGUMENT.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../../src-shared/errors';

export type CursorValue = string | number;

interface Payload {
  v: 1;
  f: string;
  k: CursorValue[];
}

const recentFingerprints = new Map<string, string>();

export function fingerprint(parts: readonly unknown[]): string {
  // Paging repeats the same parameters; hashing them again on every page is measurable on small pages.
  const text = JSON.stringify(parts);
  let fp = recentFingerprints.get(text);
  if (fp === undefined) {
    fp = createHash('sha256').update(text).digest('base64url').slice(0, 22);
    if (recentFingerprints.size >= 1000) recentFingerprints.clear();
    recentFingerprints.set(text, fp);
  }
  return fp;
}

function sign(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('base64url').slice(0, 22);
}

export function encodePageToken(secret: string, fp: string, cursor: CursorValue[]): string {
  const body = Buffer.from(JSON.stringify({ v: 1, f: fp, k: cursor } satisfies Payload)).toString('base64url');
  return `${body}.${sign(secret, body)}`;
}

export function decodePageToken(secret: string, token: string, fp: string, arity: number): CursorValue[] {
  const bad = (why: string) => ApiError.invalid('page_token', why);
  const dot = token.indexOf('.');
  if (dot <= 0) throw bad('malformed page token');
  const body = token.slice(0, dot);
  const mac = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(sign(secret, body));
  if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) throw bad('invalid page token');
  let payload: Payload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
  } catch {
    throw bad('malformed page token');
  }
  // Only reachable with the secret, but a non-object payload must still be an INVALID_ARGUMENT, not a TypeError.
  if (typeof payload !== 'object' || payload === null || payload.v !== 1) throw bad('malformed page token');
  if (payload.f !== fp) {
    throw bad('page token does not match the request: filter, order_by and the other parameters must stay the same while paging');
  }
  if (!Array.isArray(payload.k) || payload.k.length !== arity || !payload.k.every((x) => typeof x === 'string' || typeof x === 'number')) {
    throw bad('malformed page token');
  }
  return payload.k;
}
