// The shared client's Transport over node:http(s) with a keep-alive agent:
// the same request binding and error mapping as httpTransport (client.ts),
// at a fraction of fetch's per-request cost (push sends thousands of small
// requests), and with the response's Date header for the server clock.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { camelToSnake } from '../../src-shared/api/wire';
import { buildPath, TransportError, type Transport } from '../../src-shared/client';
import { ApiError, Code, codeFromHttpStatus, isStatusBody } from '../../src-shared/errors';

export interface NodeTransportOptions {
  readonly baseUrl: string;
  readonly apiKey?: string | (() => string | undefined);
  readonly timeoutMs?: number;
  /** Called with every response's Date header (epoch ms) and the local time it arrived. */
  readonly onDate?: (serverMs: number, sentMs: number) => void;
}

export interface RawTransport {
  /** The response body text of a successful call (errors as in call()). */
  callRaw(op: import('../../src-shared/api/operation').OperationDef, request: Record<string, unknown>): Promise<string>;
}

export function nodeHttpTransport(options: NodeTransportOptions): Transport & RawTransport & { close(): void } {
  const base = new URL(options.baseUrl);
  const secure = base.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true, maxSockets: 64 }) : new HttpAgent({ keepAlive: true, maxSockets: 64 });
  const send = secure ? httpsRequest : httpRequest;
  const transport = {
    close: () => agent.destroy(),
    async call(_name: string, op: import('../../src-shared/api/operation').OperationDef, request: Record<string, unknown>): Promise<unknown> {
      const text = await transport.callRaw(op, request);
      try {
        return JSON.parse(text);
      } catch (e) {
        throw new TransportError(`${op.method} ${op.path}: response body lost (${(e as Error).message})`, e);
      }
    },
    callRaw(op: import('../../src-shared/api/operation').OperationDef, request: Record<string, unknown>): Promise<string> {
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
        body = JSON.stringify(Object.fromEntries(Object.entries(request).filter(([k]) => !used.has(k))));
        headers['Content-Type'] = 'application/json';
        headers['Content-Length'] = String(Buffer.byteLength(body));
      } else if (op.input === 'multipart') {
        return Promise.reject(new ApiError(Code.UNIMPLEMENTED, `${op.name}: use uploadFile() for multipart operations`));
      }
      const where = `${op.method} ${url.pathname}`;
      const sent = Date.now();
      return new Promise((resolve, reject) => {
        const req = send(url, { method: op.method, headers, agent, timeout: options.timeoutMs ?? 30_000 }, (res: IncomingMessage) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', (e) => reject(new TransportError(`${where}: ${e.message}`, e)));
          res.on('close', () => {
            if (!res.complete) reject(new TransportError(`${where}: response body lost (connection closed)`));
          });
          res.on('end', () => {
            const date = res.headers.date ? Date.parse(res.headers.date) : NaN;
            if (!Number.isNaN(date)) options.onDate?.(date, sent);
            const status = res.statusCode ?? 0;
            const text = Buffer.concat(chunks).toString('utf8');
            if (status >= 200 && status < 300) return resolve(text);
            let json: unknown;
            try {
              json = JSON.parse(text);
            } catch {
              return reject(new ApiError(codeFromHttpStatus(status), `HTTP ${status}`));
            }
            const err = isStatusBody(json) ? ApiError.fromBody(json) : new ApiError(codeFromHttpStatus(status), `HTTP ${status}`);
            const retryAfter = res.headers['retry-after'];
            (err as ApiError & { retryAfter?: string | null }).retryAfter = (Array.isArray(retryAfter) ? retryAfter[0] : retryAfter) ?? null;
            reject(err);
          });
        });
        req.on('timeout', () => req.destroy(new Error(`no response within ${options.timeoutMs ?? 30_000} ms`)));
        req.on('error', (e) => reject(new TransportError(`${where}: ${e.message}`, e)));
        req.end(body);
      });
    },
  };
  return transport;
}
