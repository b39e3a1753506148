// The remote: the platform's public HTTP API through the shared client's
// httpTransport (never a private sync endpoint), plus the server clock read
// from each response's Date header. Server time orders conflicts and bounds
// unknown-outcome lookups; the local clock is never a pull cursor.
import { writeFile } from 'node:fs/promises';
import type { OperationDef } from '../../src-shared/api/operation';
import { httpTransport, type Transport } from '../../src-shared/client';
import { TransportError } from '../../src-shared/httpRequest';
import { ApiError, Code } from '../../src-shared/errors';
import { operations, type OperationName } from '../../src-shared/operations';
import { nodeHttpTransport, type RawTransport } from './nodeTransport';
import { ServerClock } from './serverClock';
import type { WireRequest, WireResponse } from './wireTypes';

export interface RemoteOptions {
  readonly baseUrl: string;
  readonly apiKey: string | (() => string | undefined);
  readonly timeoutMs?: number;
  /** Use fetch (httpTransport) instead of node:http (e.g. to inject a fetch in tests). */
  readonly fetch?: typeof fetch;
}

/** Skew below this is Date-header noise (1 s precision) and ignored. */
const NEGLIGIBLE_SKEW = 2_000_000;

export class Remote {
  private readonly transport: Transport & Partial<RawTransport> & { close?(): void };
  private readonly clock = new ServerClock();
  requests = 0;

  constructor(readonly options: RemoteOptions) {
    const observe = (at: number, sent: number, received: number) => this.clock.observe(at, sent, received);
    const common = { baseUrl: options.baseUrl, apiKey: options.apiKey, timeoutMs: options.timeoutMs ?? 30_000 };
    const base = options.fetch;
    if (!base) {
      this.transport = nodeHttpTransport({ ...common, onDate: observe });
      return;
    }
    const observed: typeof fetch = async (input, init) => {
      const sent = Date.now();
      const res = await base(input, init);
      const at = Date.parse(res.headers.get('date') ?? '');
      if (!Number.isNaN(at)) observe(at, sent, Date.now());
      return res;
    };
    this.transport = httpTransport({ ...common, fetch: observed });
  }

  /** Releases kept-alive connections. */
  close(): void {
    this.transport.close?.();
  }

  /** Calls an operation of the table by name (typed by the table when the name is known here: wireTypes.ts RemoteCall). */
  call<K extends OperationName>(name: K, request: WireRequest<K>): Promise<WireResponse<K>>;
  call(name: string, request: Record<string, unknown>): Promise<unknown>;
  async call(name: string, request: Record<string, unknown>): Promise<unknown> {
    const op = (operations as Record<string, OperationDef>)[name];
    if (!op) throw new ApiError(Code.UNIMPLEMENTED, `${name}: not in this Outpost's operation table`);
    this.requests++;
    return await this.transport.call(name as OperationName, op, request);
  }

  /**
   * A list page as text plus the page token read from the text before parsing it, so the next
   * page can be requested while this one is parsed and applied (checked against the parsed token).
   */
  async callPage(name: string, request: Record<string, unknown>): Promise<{ peekedToken: string | undefined; parse(): unknown }> {
    const op = (operations as Record<string, OperationDef>)[name];
    if (!op || !this.transport.callRaw) {
      const res = await this.call(name, request);
      return { peekedToken: (res as { nextPageToken?: string }).nextPageToken || undefined, parse: () => res };
    }
    this.requests++;
    const text = await this.transport.callRaw(op, request);
    // A quote inside a JSON string is escaped, so only a real key matches.
    const matches = [...text.slice(-2048).matchAll(/"nextPageToken"\s*:\s*"([^"\\]*)"/g)];
    return {
      peekedToken: matches.length ? matches[matches.length - 1][1] || undefined : undefined,
      parse: () => {
        try {
          return JSON.parse(text);
        } catch (e) {
          throw new TransportError(`${op.method} ${op.path}: response body lost (${(e as Error).message})`, e);
        }
      },
    };
  }

  /**
   * A binary operation (e.g. DownloadArtifactContent) streamed into `destPath`. Multipart operations go
   * through call(): a request field holding a FilePart ({ path, fileName, mimeType }) is sent as the file.
   */
  async download(name: string, request: Record<string, unknown>, destPath: string): Promise<{ bytes: number; contentType: string }> {
    const op = (operations as Record<string, OperationDef>)[name];
    if (!op || op.output !== 'binary')
      throw new ApiError(Code.UNIMPLEMENTED, `${name}: not a binary operation of this Outpost's operation table`);
    this.requests++;
    if (this.transport.download) return await this.transport.download(op, request, destPath);
    const bytes = (await this.transport.call(name as OperationName, op, request)) as Uint8Array;
    await writeFile(destPath, bytes);
    return { bytes: bytes.byteLength, contentType: 'application/octet-stream' };
  }

  static has(name: string): boolean {
    return name in operations;
  }

  /** Estimated server clock now (epoch micros); the local clock until a response has been seen. */
  serverNow(): number {
    return Math.round((Date.now() + this.clock.offsetMs()) * 1000);
  }

  /** server - local clock (micros), 0 when negligible or unknown. */
  clockOffset(): number {
    const offset = this.clock.offsetMs() * 1000;
    return Math.abs(offset) < NEGLIGIBLE_SKEW ? 0 : Math.round(offset);
  }
}
