// A fault-injecting HTTP proxy between a replica and its remote. Faults are
// either queued one-shots matched by request (deterministic tests) or drawn at
// random from a seeded generator (the fuzzer):
//   drop       close the connection before forwarding (the remote never sees it)
//   delay      forward after `ms` milliseconds
//   status     answer 500 / 503 without forwarding
//   throttle   answer 429 with Retry-After: `seconds`, without forwarding
//   lose       forward, let the remote commit, then close the connection (response lost)
//   duplicate  forward twice (a replaying middlebox), answer with the first response
//   partition  (mode) every request is dropped until heal()
// plus `rejectFilters`: list requests carrying a CEL filter get 501, like a
// remote without a filter engine, `withoutRoutes`: matching requests get
// the gateway's unmatched-route answer (404 Not Found), like the platform,
// which has no artifact routes, and `refuse`: matching requests get a given
// API error (a remote refusing a parameter it does not support). `strict`
// (option or switch) makes it the strict stand-in of the platform: a request
// the platform's documented API does not allow (tests/support/platformGate.ts)
// is refused with its INVALID_ARGUMENT body, not forwarded.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { refusalBody, refusalOf } from '../support/platformGate';

export type Fault =
  | { kind: 'drop' }
  | { kind: 'delay'; ms: number }
  | { kind: 'status'; status: 500 | 503 }
  | { kind: 'throttle'; seconds: number }
  | { kind: 'lose' }
  | { kind: 'duplicate' };

export interface RequestInfo {
  readonly method: string;
  readonly path: string;
  readonly body: string;
}

export type Matcher = (r: RequestInfo) => boolean;

export interface RandomFaults {
  /** Probability that a request gets a fault. */
  readonly rate: number;
  readonly kinds: readonly Fault['kind'][];
  /** Restricts which requests may be faulted. */
  readonly when?: Matcher;
  /** Restricts which fault kinds a request may get (a disallowed draw forwards it untouched). */
  readonly allow?: (kind: Fault['kind'], r: RequestInfo) => boolean;
  readonly random: () => number;
  /** The range a random delay is drawn from, in ms (default 1-40). */
  readonly delayMs?: readonly [min: number, max: number];
}

export interface ProxyLogEntry extends RequestInfo {
  readonly fault?: Fault['kind'] | 'partition' | 'no-filter' | 'no-route' | 'refused' | 'not-allowed';
  /** Why the strict gate refused it (fault `not-allowed`). */
  readonly refusal?: string;
  /** Times the request reached the remote. */
  readonly forwarded: number;
  /** Requests the proxy was handling when this one arrived, itself included (how parallel the client was). */
  readonly concurrent: number;
  readonly status?: number;
}

export interface FaultProxy {
  readonly url: string;
  readonly log: ProxyLogEntry[];
  /** Queue a one-shot fault for the next request matching `when` (default: any). */
  once(fault: Fault, when?: Matcher): void;
  random(config: RandomFaults | undefined): void;
  partition(): void;
  heal(): void;
  rejectFilters(on: boolean): void;
  /** Requests matching `when` (until called with undefined) are answered 404 Not Found without forwarding. */
  withoutRoutes(when: Matcher | undefined): void;
  /** Requests matching `when` (until called with undefined) get this API error without forwarding. */
  refuse(when: Matcher | undefined, answer?: ApiRefusal): void;
  /** The strict stand-in of the platform: requests its documented API does not allow are refused (INVALID_ARGUMENT). */
  strict(on: boolean): void;
  /** Rewrites the text of every JSON response the remote gives (until called with undefined), e.g. to add precision. */
  rewriteResponses(fn: ((text: string) => string) | undefined): void;
  /** Requests that reached the remote, as "METHOD path". */
  forwarded(matcher?: Matcher): number;
  close(): Promise<void>;
}

export interface ApiRefusal {
  readonly status: number;
  readonly code: number;
  readonly message: string;
}

export const isPost =
  (pathPart: string): Matcher =>
  (r) =>
    r.method === 'POST' && r.path.includes(pathPart);
export const isWrite: Matcher = (r) => r.method !== 'GET';

export async function startFaultProxy(target: string, options: { strict?: boolean } = {}): Promise<FaultProxy> {
  const targetUrl = new URL(target);
  let strict = options.strict ?? false;
  let rewrite: ((text: string) => string) | undefined;
  const queue: { fault: Fault; when: Matcher }[] = [];
  let randomFaults: RandomFaults | undefined;
  let partitioned = false;
  let noFilters = false;
  let missingRoutes: Matcher | undefined;
  let refusing: { when: Matcher; answer: ApiRefusal } | undefined;
  const log: ProxyLogEntry[] = [];
  const sockets = new Set<Socket>();
  let handling = 0;

  const forward = (req: IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      const out = httpRequest(
        {
          host: targetUrl.hostname,
          port: targetUrl.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: targetUrl.host, connection: 'keep-alive' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });

  const pick = (info: RequestInfo): Fault | undefined => {
    const i = queue.findIndex((q) => q.when(info));
    if (i >= 0) return queue.splice(i, 1)[0].fault;
    const r = randomFaults;
    if (!r || r.kinds.length === 0 || (r.when && !r.when(info))) return undefined;
    if (r.random() >= r.rate) return undefined;
    const kind = r.kinds[Math.floor(r.random() * r.kinds.length)];
    if (r.allow && !r.allow(kind, info)) return undefined;
    switch (kind) {
      case 'delay': {
        const [min, max] = r.delayMs ?? [1, 40];
        return { kind, ms: min + Math.floor(r.random() * (max - min + 1)) };
      }
      case 'status':
        return { kind, status: r.random() < 0.5 ? 500 : 503 };
      case 'throttle':
        return { kind, seconds: 0 };
      default:
        return { kind } as Fault;
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const info: RequestInfo = { method: req.method ?? 'GET', path: req.url ?? '/', body: body.toString('utf8') };
    const entry: { -readonly [K in keyof ProxyLogEntry]: ProxyLogEntry[K] } = { ...info, forwarded: 0, concurrent: handling };
    log.push(entry);
    const send = (r: { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }) => {
      entry.status = r.status;
      if (rewrite && String(r.headers['content-type'] ?? '').includes('application/json'))
        r = { ...r, body: Buffer.from(rewrite(r.body.toString('utf8'))) };
      const headers = { ...r.headers };
      delete headers['transfer-encoding'];
      delete headers.connection;
      res.writeHead(r.status, { ...headers, 'content-length': r.body.length });
      res.end(r.body);
    };
    const fail = (status: number, code: number, message: string, extra: Record<string, string> = {}) => {
      entry.status = status;
      const text = JSON.stringify({ code, message, details: [] });
      res.writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
        date: new Date().toUTCString(),
        ...extra,
      });
      res.end(text);
    };
    const refusal = strict ? refusalOf(info) : undefined;
    if (refusal) {
      entry.fault = 'not-allowed';
      entry.refusal = refusal.message;
      entry.status = 400;
      const text = JSON.stringify(refusalBody(refusal));
      res.writeHead(400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), date: new Date().toUTCString() });
      res.end(text);
      return;
    }
    if (partitioned) {
      entry.fault = 'partition';
      req.socket.destroy();
      return;
    }
    if (noFilters && info.method === 'GET' && /[?&]filter=/.test(info.path)) {
      entry.fault = 'no-filter';
      fail(501, 12, 'filter: CEL filtering is not implemented yet');
      return;
    }
    if (missingRoutes?.(info)) {
      entry.fault = 'no-route';
      fail(404, 5, 'Not Found');
      return;
    }
    if (refusing?.when(info)) {
      entry.fault = 'refused';
      fail(refusing.answer.status, refusing.answer.code, refusing.answer.message);
      return;
    }
    const fault = pick(info);
    entry.fault = fault?.kind;
    switch (fault?.kind) {
      case 'drop':
        req.socket.destroy();
        return;
      case 'status':
        fail(fault.status, fault.status === 503 ? 14 : 13, fault.status === 503 ? 'injected: unavailable' : 'injected: internal error');
        return;
      case 'throttle':
        fail(429, 8, 'injected: slow down', { 'retry-after': String(fault.seconds) });
        return;
      case 'delay':
        await new Promise((r) => setTimeout(r, fault.ms));
        break;
    }
    try {
      const first = await forward(req, body);
      entry.forwarded++;
      if (fault?.kind === 'duplicate') {
        await forward(req, body);
        entry.forwarded++;
      }
      if (fault?.kind === 'lose') {
        req.socket.destroy();
        return;
      }
      send(first);
    } catch {
      req.socket.destroy();
    }
  };

  const server: Server = createServer((req, res) => {
    handling++;
    handle(req, res)
      .catch(() => req.socket.destroy())
      .finally(() => handling--);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    log,
    once: (fault, when = () => true) => void queue.push({ fault, when }),
    random: (config) => void (randomFaults = config),
    partition: () => {
      partitioned = true;
      for (const s of sockets) s.destroy();
    },
    heal: () => void (partitioned = false),
    rejectFilters: (on) => void (noFilters = on),
    withoutRoutes: (when) => void (missingRoutes = when),
    refuse: (when, answer) => void (refusing = when && answer ? { when, answer } : undefined),
    strict: (on) => void (strict = on),
    rewriteResponses: (fn) => void (rewrite = fn),
    forwarded: (m = () => true) => log.filter((e) => m(e)).reduce((n, e) => n + e.forwarded, 0),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
