// `outpost serve`: the API at /api/... (routes generated from the operation
// table) and the built renderer at /. A thin adapter: authenticate, bind the
// request per the operation's input rule, invoke, write JSON or an error body.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { Readable, type Duplex } from 'node:stream';
import { CHANGES_PATH } from '../../src-shared/api/changes';
import { ApiError, Code } from '../../src-shared/errors';
import { authenticate } from '../auth/apiKeys';
import type { Caller } from '../auth/caller';
import type { Engine } from '../engine';
import type { BinaryResult } from '../services/common/handler';
import { invoke } from '../services/invoke';
import { JsonText } from '../services/common/jsonText';
import { serveChanges } from './changeStream';
import { MAX_JSON_BODY_BYTES, readJsonBody, readMultipart } from './readBody';
import { useServingCheckpoints } from './checkpoints';
import { CONTENT_SECURITY_POLICY } from './contentSecurityPolicy';
import { groupCommitFor } from '../db/groupCommit';
import { createGrpcFrontDoor, type RpcRequest } from '../grpc/handler';
import { acceptHttp2 } from '../grpc/onePort';
import { storageError } from '../db/storageErrors';
import { decoded, matchRoute } from './routes';
import { uploadLimitFor } from './uploadLimits';

export interface ServeOptions {
  readonly port?: number;
  readonly host?: string;
  /** Directory of the built renderer (index.html + assets); omitted = API only. */
  readonly staticDir?: string;
  /**
   * Host names served besides the bound address and `localhost` (`--allowed-host`): a request naming any other
   * Host is refused, so a page on another site cannot reach this server through DNS rebinding.
   */
  readonly allowedHosts?: readonly string[];
  /** How often the change feed (GET /api/v1/outpost/changes) sends a heartbeat comment (default 15 s). */
  readonly changeHeartbeatMs?: number;
}

/**
 * Request headers up to 64 KiB (Node's default is 16): a filter of the engine's longest allowed size
 * (MAX_FILTER_LENGTH characters, percent-encoded in the query string) must fit.
 */
export const MAX_HEADER_BYTES = 64 * 1024;
/**
 * Node's own parser limit, above ours: a request between the two is parsed and refused here, where its method is
 * known (the answer to a HEAD carries no body). Past this one Node's parser refuses it (answerClientError).
 */
const PARSER_HEADER_BYTES = 4 * MAX_HEADER_BYTES;

const headerOverflow = () =>
  new ApiError(
    Code.INVALID_ARGUMENT,
    `request headers exceed ${MAX_HEADER_BYTES} bytes (a filter this long is over the engine's own limits)`,
  );

/** The request line's target and the header lines, as they came (close to what the parser counted). */
function headerBytes(req: IncomingMessage): number {
  let n = (req.url ?? '').length;
  for (const h of req.rawHeaders) n += h.length + 2;
  return n;
}

const ANONYMOUS: Caller = { userId: '', userName: '', organizations: [] };

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  // Encoded once: byteLength(text) and end(text) would each walk a list page's megabyte of text.
  const bytes = Buffer.from(body instanceof JsonText ? body.text : JSON.stringify(body), 'utf8');
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': bytes.length, 'Cache-Control': 'no-store', ...headers });
  res.end(bytes);
}

export function sendError(res: ServerResponse, error: unknown): void {
  let apiError: ApiError;
  if (error instanceof ApiError) apiError = error;
  else if (storageError(error)) apiError = storageError(error)!;
  else {
    // Unexpected: log for the operator, never leak details to the client.
    console.error('outpost: internal error:', error);
    apiError = ApiError.internal();
  }
  const headers: Record<string, string> = {};
  if (apiError.code === Code.UNAUTHENTICATED) headers['WWW-Authenticate'] = apiError.message.replace(/[^\x20-\x7e]/g, '?');
  // A body left unread (too large, refused before reading) is not drained: the connection closes after the answer.
  if (res.req && !res.req.complete) headers.Connection = 'close';
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, apiError.httpStatus, apiError.toBody(), headers);
}

function queryObject(url: URL): Record<string, unknown> {
  // URLSearchParams turns a malformed escape into U+FFFD: a value the client never sent. Refuse it, naming the field.
  for (const pair of url.search.slice(1).split('&')) {
    const eq = pair.indexOf('=');
    const [key, value] = (eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)]).map((s) => s.replace(/\+/g, ' '));
    if (decoded(key) === undefined || decoded(value) === undefined)
      throw ApiError.invalid(safeFieldName(key), 'is not percent-encoded UTF-8');
  }
  const out: Record<string, unknown> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    out[key] = values.length === 1 ? values[0] : values;
  }
  return out;
}

/** A query key as an error may name it: decoded when it can be, its printable characters only, bounded. */
function safeFieldName(key: string): string {
  return (decoded(key) ?? key).replace(/[^\x20-\x7e]/g, '?').slice(0, 100) || 'query';
}

async function handleApi(engine: Engine, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const match = matchRoute(req.method ?? 'GET', url.pathname);
  if (match.kind === 'not-found') throw new ApiError(Code.NOT_FOUND, 'Not Found');
  if (match.kind === 'method-not-allowed') throw new ApiError(Code.UNIMPLEMENTED, 'Method Not Allowed');
  if (match.kind === 'bad-path') throw ApiError.invalid(match.field, match.description);
  const { route, pathParams } = match;
  const caller = route.op.public ? ANONYMOUS : authenticate(engine.db, req.headers.authorization);
  let raw: Record<string, unknown>;
  let cleanup = () => {};
  switch (route.op.input) {
    case 'body':
      raw = { ...(await readJsonBody(req)), ...pathParams };
      break;
    case 'query':
      raw = { ...queryObject(url), ...pathParams };
      break;
    case 'multipart': {
      const form = await readMultipart(req, join(engine.dataDir, 'tmp'), uploadLimitFor(route.name));
      cleanup = form.cleanup;
      raw = { ...form.fields, ...(form.file ? { file: form.file } : {}), ...pathParams };
      break;
    }
    default:
      raw = { ...pathParams };
  }
  try {
    // Absolute URLs (download links) name the address this server is bound to, never the request's Host.
    const run = () => invoke({ engine, db: engine.db, caller, origin: boundOrigin(req), acceptsJsonText: true }, route.name, raw);
    // Writes share commits with the other writes of the same event-loop turn (groupCommit.ts); reads need none.
    const result = route.op.method === 'GET' || route.op.input === 'multipart' ? await run() : await groupCommitFor(engine.db).submit(run);
    if (route.op.output === 'binary') {
      const bin = result as BinaryResult;
      const headers: Record<string, string | number> = {
        'Content-Type': inertContentType(bin.contentType),
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        // User content: even opened directly, it runs no script and reaches nothing of this origin.
        'Content-Security-Policy': "sandbox; default-src 'none'",
      };
      if (bin.size !== undefined) headers['Content-Length'] = bin.size;
      if (bin.fileName) headers['Content-Disposition'] = `attachment; filename*=UTF-8''${encodeURIComponent(bin.fileName)}`;
      res.writeHead(200, headers);
      const stream = Buffer.isBuffer(bin.body) ? Readable.from([bin.body]) : (bin.body as Readable);
      stream.on('error', () => res.destroy());
      stream.pipe(res);
      return;
    }
    sendJson(res, 200, result);
  } finally {
    cleanup();
  }
}

/** `http://127.0.0.1:4280`: the address and port the request's connection was accepted on. */
function boundOrigin(req: RpcRequest): string {
  const address = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  return `http://${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort}`;
}

/**
 * User content is never served as something a browser would run in this origin (a script, a page, an SVG):
 * those types go out as plain bytes; with nosniff and the attachment disposition the browser only saves them.
 */
function inertContentType(type: string): string {
  return /javascript|ecmascript|html|xml|svg|wasm|xsl/i.test(type) ? 'application/octet-stream' : type;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export { CONTENT_SECURITY_POLICY };

function serveStatic(staticDir: string, url: URL, res: ServerResponse): void {
  const root = resolve(staticDir);
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    // `/%`, `/%E0%A4%A`: any page could send one (an <img src>); it is the request's error, never the server's.
    sendError(res, ApiError.invalid('path', 'malformed percent-encoding in the request path'));
    return;
  }
  let file = normalize(join(root, path));
  if (!file.startsWith(root + sep) && file !== root) {
    sendJson(res, 404, new ApiError(Code.NOT_FOUND, 'Not Found').toBody());
    return;
  }
  if (!existsSync(file) || statSync(file).isDirectory()) file = join(root, 'index.html'); // SPA fallback
  if (!existsSync(file)) {
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('The renderer is not built. Run `npm run build`.');
    return;
  }
  res.writeHead(200, {
    'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': file.endsWith('index.html') ? 'no-cache' : 'public, max-age=3600',
  });
  createReadStream(file).pipe(res);
}

/** The Host header's name without its port (`[::1]:80` -> `[::1]`), lowercased. */
function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  return h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.replace(/:\d*$/, '');
}

/** Whether a request's Host names this server: its bound address, localhost, or a configured name. */
function hostAllowed(req: IncomingMessage, allowed: ReadonlySet<string>): boolean {
  const host = req.headers.host;
  if (!host) return true; // HTTP/1.0 without Host: nothing a browser page can send
  const name = hostName(host);
  if (allowed.has(name)) return true;
  const local = req.socket.localAddress?.replace(/^::ffff:/, '') ?? '';
  return name === local || name === `[${local}]`;
}

/** Answers a request Node's parser refused (headers too large, malformed) with the contract's error body. */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  // Answer only a connection with no response under way (Node's http keeps it as `_httpMessage`): an answer
  // written now would jump ahead of the one being prepared. Close it either way.
  const responding = !!(socket as Duplex & { _httpMessage?: unknown })._httpMessage;
  if (!socket.writable || responding) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const error = tooLarge ? headerOverflow() : ApiError.invalid('request', 'malformed HTTP request');
  const body = JSON.stringify(error.toBody());
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  // The answer to a HEAD has no body (a client would read one as garbage after the answer). The packet that failed
  // shows the method when it holds the request line.
  const head = (err as NodeJS.ErrnoException & { rawPacket?: Buffer }).rawPacket?.toString('latin1', 0, 5) === 'HEAD ';
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`,
  );
}

export function createApiServer(engine: Engine, options: ServeOptions = {}): Server {
  useServingCheckpoints(engine.db);
  const allowedHosts = new Set(['localhost', '127.0.0.1', '[::1]', ...(options.allowedHosts ?? []).map(hostName)]);
  const grpc = createGrpcFrontDoor(engine, { originOf: boundOrigin, readMaxBytes: MAX_JSON_BODY_BYTES });
  const server = createServer({ maxHeaderSize: PARSER_HEADER_BYTES, requireHostHeader: false }, (req, res) => {
    // Read now, not from Node's per-second cache, which a busy event loop leaves seconds old: a sync client sets its
    // estimate of this server's clock by the Date header (sync/serverClock.ts), and a create's send window with it.
    res.setHeader('Date', new Date().toUTCString());
    if (headerBytes(req) > MAX_HEADER_BYTES) {
      sendJson(res, 431, headerOverflow().toBody(), { Connection: 'close' });
      return;
    }
    if (!req.headers.host && req.httpVersion === '1.1') {
      // (Node would answer this itself, with an empty body: requireHostHeader is off so the contract's body goes out.)
      sendError(res, ApiError.invalid('host', 'an HTTP/1.1 request must name its Host'));
      return;
    }
    if (!hostAllowed(req, allowedHosts)) {
      sendError(
        res,
        ApiError.permissionDenied(
          `the Host '${String(req.headers.host).slice(0, 200)}' is not served here (DNS rebinding guard); use the address outpost serve printed, or start it with --allowed-host`,
        ),
      );
      return;
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      sendError(res, ApiError.invalid('url', 'malformed request URL'));
      return;
    }
    if (grpc.serves(url.pathname)) {
      grpc.handle(req, res); // gRPC-Web and Connect over HTTP/1.1
    } else if (url.pathname === CHANGES_PATH && req.method === 'GET') {
      try {
        serveChanges(engine, req, res, { heartbeatMs: options.changeHeartbeatMs });
      } catch (e) {
        sendError(res, e);
      }
    } else if (url.pathname.startsWith('/api/')) {
      handleApi(engine, req, res, url).catch((e) => sendError(res, e));
    } else if (options.staticDir && (req.method === 'GET' || req.method === 'HEAD')) {
      serveStatic(options.staticDir, url, res);
    } else {
      sendError(res, new ApiError(Code.NOT_FOUND, 'Not Found'));
    }
  });
  server.on('clientError', answerClientError);
  // Every header line reaches rawHeaders (Node keeps 2000 by default and drops the rest unseen), so headerBytes
  // counts them all: 10,000 short headers are over MAX_HEADER_BYTES like one long one.
  server.maxHeadersCount = 0;
  acceptHttp2(server, grpc.handle); // gRPC (and the other two) over HTTP/2 on the same port
  return server;
}

export async function listen(server: NetServer, port = 0, host = '127.0.0.1'): Promise<string> {
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolveListen());
  });
  const addr = server.address() as AddressInfo;
  return `http://${host.includes(':') ? `[${host}]` : host}:${addr.port}`;
}
