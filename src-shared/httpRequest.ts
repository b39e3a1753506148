// How an operation of the table travels over HTTP, written once for every
// client: the typed client's fetch transport (client.ts: the browser, the CLI,
// tests) and sync's keep-alive transport (src-main/sync/nodeTransport.ts). The
// server's side of the same binding is src-main/http/routes.ts.
import type { OperationDef } from './api/operation';
import { camelToSnake } from './api/wire';
import { ApiError, codeFromHttpStatus, isStatusBody } from './errors';

/** An operation's request as HTTP: where it goes, and its body in the form its input kind takes. */
export interface HttpRequestParts {
  readonly url: URL;
  readonly method: string;
  readonly headers: Record<string, string>;
  /** input `body`: the JSON text (path fields left out). */
  readonly json?: string;
  /** input `multipart`: the form fields in request order (path fields and unset values left out); the file is `file`. */
  readonly form?: readonly (readonly [string, unknown])[];
}

/** Fills `{field}` path segments from the request; returns the path and the fields it used. */
export function buildPath(op: OperationDef, request: Record<string, unknown>): { path: string; used: Set<string> } {
  const used = new Set<string>();
  const path = op.path.replace(/\{([a-z_]+)\}/g, (_, snake: string) => {
    const camel = snake.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
    const value = request[camel] ?? request[snake];
    if (value === undefined || value === '') throw ApiError.invalid(snake, 'is required');
    used.add(camel);
    return encodeURIComponent(String(value));
  });
  return { path, used };
}

export function httpRequestOf(baseUrl: string, op: OperationDef, request: Record<string, unknown>, apiKey?: string): HttpRequestParts {
  const { path, used } = buildPath(op, request);
  const url = new URL(path, baseUrl);
  const headers: Record<string, string> = { Accept: op.output === 'binary' ? '*/*' : 'application/json' };
  if (apiKey) headers.Authorization = `Bearer ${apiKey}`;
  const fields = Object.entries(request).filter(([k, v]) => !used.has(k) && v !== undefined && v !== null);
  switch (op.input) {
    case 'query':
      for (const [k, v] of fields) for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(camelToSnake(k), String(item));
      return { url, method: op.method, headers };
    case 'body':
      headers['Content-Type'] = 'application/json';
      return {
        url,
        method: op.method,
        headers,
        json: JSON.stringify(Object.fromEntries(Object.entries(request).filter(([k]) => !used.has(k)))),
      };
    case 'multipart':
      return { url, method: op.method, headers, form: fields };
    default:
      return { url, method: op.method, headers };
  }
}

/** A form field's text: strings as they are, everything else (metadata and link lists) as JSON. */
export const formFieldText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** The error a failed HTTP response means: the google.rpc.Status body it carries, or its status alone. */
export function errorOfResponse(status: number, bodyText: string, retryAfter: string | null | undefined): ApiError {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    body = undefined;
  }
  const error = isStatusBody(body) ? ApiError.fromBody(body) : new ApiError(codeFromHttpStatus(status), `HTTP ${status}`);
  error.retryAfter = retryAfter ?? null;
  return error;
}

/** Thrown when no HTTP response arrived (network error, timeout): the outcome is unknown. */
export class TransportError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}
