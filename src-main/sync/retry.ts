// What a failed remote call means for sync, and how long to wait before the
// next try: exponential backoff with jitter, never shorter than Retry-After.
import { TransportError } from '../../src-shared/httpRequest';
import { ApiError, Code } from '../../src-shared/errors';

export type Failure =
  /** Try again later. unknownOutcome: the remote may have applied the request (no response, or a 5xx). */
  | { kind: 'transient'; unknownOutcome: boolean; retryAfterMs?: number; code: number | null; message: string }
  /** 401/403: stop syncing until the credentials change (on the push, 403 refuses the entry alone: classifyPush). */
  | { kind: 'auth'; code: number; message: string }
  | { kind: 'notFound'; code: number; message: string }
  | { kind: 'exists'; code: number; message: string }
  /** Any other 4xx (and 501): the request itself is refused; retrying cannot help. */
  | { kind: 'rejected'; code: number; message: string };

/** Retry-After: delay-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export function classify(e: unknown): Failure {
  if (e instanceof TransportError) return { kind: 'transient', unknownOutcome: true, code: null, message: e.message };
  if (e instanceof ApiError) {
    const message = e.message;
    switch (e.code) {
      case Code.UNAUTHENTICATED:
      case Code.PERMISSION_DENIED:
        return { kind: 'auth', code: e.code, message };
      case Code.NOT_FOUND:
        return { kind: 'notFound', code: e.code, message };
      case Code.ALREADY_EXISTS:
        return { kind: 'exists', code: e.code, message };
      case Code.RESOURCE_EXHAUSTED:
        // 429: refused before being applied.
        return { kind: 'transient', unknownOutcome: false, retryAfterMs: parseRetryAfter(e.retryAfter), code: e.code, message };
      case Code.UNAVAILABLE:
      case Code.INTERNAL:
      case Code.UNKNOWN:
      case Code.DEADLINE_EXCEEDED:
      case Code.ABORTED:
      case Code.CANCELLED:
      case Code.DATA_LOSS:
        return { kind: 'transient', unknownOutcome: true, retryAfterMs: parseRetryAfter(e.retryAfter), code: e.code, message };
      default:
        return { kind: 'rejected', code: e.code, message };
    }
  }
  // A bug or a malformed response: treat like a lost response (the request may have been applied).
  return { kind: 'transient', unknownOutcome: true, code: null, message: (e as Error)?.message ?? String(e) };
}

/**
 * What a failure means for one outbox entry: a 403 there is the remote's policies refusing that edit (a forbid on
 * CreateAnnotationLog), not the key, so the entry is refused and the push and the pull go on; only 401 (the key
 * itself refused) stops the sync (issue #28 item 3).
 */
export function classifyPush(e: unknown): Failure {
  const f = classify(e);
  return f.kind === 'auth' && f.code === Code.PERMISSION_DENIED ? { kind: 'rejected', code: f.code, message: f.message } : f;
}

/** The remote asks for fewer requests (429, 503): the push window narrows (pushWindow.ts). */
export const isOverload = (f: Failure): boolean =>
  f.kind === 'transient' && (f.code === Code.RESOURCE_EXHAUSTED || f.code === Code.UNAVAILABLE);

export interface RetryPolicy {
  /** Tries per request within one sync run (the scheduler retries the run later). */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** 0..1: random share of each delay ("equal jitter" at 0.5). */
  readonly jitter: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 6, baseDelayMs: 250, maxDelayMs: 15_000, jitter: 0.5 };

export function backoffDelay(retry: RetryPolicy, attempt: number, retryAfterMs?: number, random = Math.random): number {
  const exp = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** attempt);
  const delay = exp * (1 - retry.jitter) + exp * retry.jitter * random();
  return Math.max(Math.round(delay), retryAfterMs ?? 0);
}

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export class AuthError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
    this.name = 'AuthError';
  }
}
