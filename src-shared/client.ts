// The typed client: one method per operation of the table, over a Transport.
// HTTP (fetch) in the browser, the CLI and sync; IPC in the desktop renderer.
import type { OperationDef, RequestInputOf, ResponseOf } from './api/operation';
import { camelToSnake } from './api/wire';
import { ApiError, Code, codeFromHttpStatus, isStatusBody } from './errors';
import { operations, type OperationName, type Operations } from './operations';

export interface Transport {
  call(name: OperationName, op: OperationDef, request: Record<string, unknown>): Promise<unknown>;
}

export type Client = {
  [K in OperationName]: (request?: RequestInputOf<Operations[K]>) => Promise<ResponseOf<Operations[K]>>;
};

export function createClient(transport: Transport): Client {
  const client = {} as Record<string, (req?: Record<string, unknown>) => Promise<unknown>>;
  for (const [name, op] of Object.entries(operations) as [OperationName, OperationDef][]) {
    client[name] = (req = {}) => transport.call(name, op, req);
  }
  return client as unknown as Client;
}

/** Fills `{field}` path segments from the request; returns the path and the fields it used. */
export function buildPath(op: OperationDef, request: Record<string, unknown>): { path: string; used: Set<string> } {
  const used = new Set<string>();
  const path = op.path.replace(/\{([a-z_]+)\}/g, (_, snake: string) => {
    const camel = snake.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
    const value = request[camel] ?? request[snake];
    if (value === undefined || value === '') throw new ApiError(Code.INVALID_ARGUMENT, `${snake}: is required`);
    used.add(camel);
    return encodeURIComponent(String(value));
  });
  return { path, used };
}

export interface HttpTransportOptions {
  readonly baseUrl: string;
  readonly apiKey?: string | (() => string | undefined);
  readonly fetch?: typeof fetch;
  /** Per-request timeout in milliseconds (default 30 s). */
  readonly timeoutMs?: number;
}

/** Thrown when no HTTP response arrived (network error, timeout): the outcome is unknown. */
export class TransportError extends Error {
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
    this.name = 'TransportError';
  }
}

export function httpTransport(options: HttpTransportOptions): Transport {
  const doFetch = options.fetch ?? fetch;
  return {
    async call(_name, op, request) {
      const { path, used } = buildPath(op, request);
      const url = new URL(path, options.baseUrl);
      const headers: Record<string, string> = { Accept: 'application/json' };
      const key = typeof options.apiKey === 'function' ? options.apiKey() : options.apiKey;
      if (key) headers.Authorization = `Bearer ${key}`;
      let body: string | undefined;
      if (op.input === 'query') {
        for (const [k, v] of Object.entries(request)) {
          if (used.has(k) || v === undefined || v === null) continue;
          for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(camelToSnake(k), String(item));
        }
      } else if (op.input === 'body') {
        const rest = Object.fromEntries(Object.entries(request).filter(([k]) => !used.has(k)));
        body = JSON.stringify(rest);
        headers['Content-Type'] = 'application/json';
      } else if (op.input === 'multipart') {
        throw new ApiError(Code.UNIMPLEMENTED, `${op.name}: use uploadFile() for multipart operations`);
      }
      let res: Response;
      try {
        res = await doFetch(url, { method: op.method, headers, body, signal: AbortSignal.timeout(options.timeoutMs ?? 30_000) });
      } catch (e) {
        throw new TransportError(`${op.method} ${url.pathname}: ${(e as Error).message}`, e);
      }
      if (op.output === 'binary' && res.ok) return new Uint8Array(await res.arrayBuffer());
      let json: unknown;
      try {
        json = await res.json();
      } catch (e) {
        if (res.ok) throw new TransportError(`${op.method} ${url.pathname}: response body lost (${(e as Error).message})`, e);
        throw new ApiError(codeFromHttpStatus(res.status), `HTTP ${res.status}`);
      }
      if (!res.ok) {
        const err = isStatusBody(json) ? ApiError.fromBody(json) : new ApiError(codeFromHttpStatus(res.status), `HTTP ${res.status}`);
        (err as ApiError & { retryAfter?: string | null }).retryAfter = res.headers.get('Retry-After');
        throw err;
      }
      return json;
    },
  };
}
