// The remote: the platform's public HTTP API through the shared client's
// httpTransport (never a private sync endpoint), plus the server clock read
// from each response's Date header. Server time orders conflicts and bounds
// unknown-outcome lookups; the local clock is never a pull cursor.
import type { OperationDef } from '../../src-shared/api/operation';
import { httpTransport, type Transport } from '../../src-shared/client';
import { ApiError, Code } from '../../src-shared/errors';
import { operations, type OperationName } from '../../src-shared/operations';

export interface RemoteOptions {
  readonly baseUrl: string;
  readonly apiKey: string | (() => string | undefined);
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
}

/** Skew below this is Date-header noise (1 s precision) and ignored. */
const NEGLIGIBLE_SKEW = 2_000_000;

export class Remote {
  private readonly transport: Transport;
  private serverAt: number | undefined;
  private localAt = 0;
  requests = 0;

  constructor(readonly options: RemoteOptions) {
    const base = options.fetch ?? fetch;
    const observe: typeof fetch = async (input, init) => {
      const sent = Date.now();
      const res = await base(input, init);
      const date = res.headers.get('date');
      const at = date ? Date.parse(date) : NaN;
      if (!Number.isNaN(at)) {
        // Date truncates to the second: the server's clock was in [at, at + 1 s) when it answered.
        this.serverAt = (at + 500) * 1000;
        this.localAt = (sent + Date.now()) / 2;
      }
      return res;
    };
    this.transport = httpTransport({ baseUrl: options.baseUrl, apiKey: options.apiKey, fetch: observe, timeoutMs: options.timeoutMs ?? 30_000 });
  }

  /** Calls an operation of the table by name. */
  async call(name: string, request: Record<string, unknown>): Promise<any> {
    const op = (operations as Record<string, OperationDef>)[name];
    if (!op) throw new ApiError(Code.UNIMPLEMENTED, `${name}: not in this Outpost's operation table`);
    this.requests++;
    return await this.transport.call(name as OperationName, op, request);
  }

  static has(name: string): boolean {
    return name in operations;
  }

  /** Estimated server clock now (epoch micros); the local clock until a response has been seen. */
  serverNow(): number {
    if (this.serverAt === undefined) return Date.now() * 1000;
    return this.serverAt + (Date.now() - this.localAt) * 1000;
  }

  /** server - local clock (micros), 0 when negligible or unknown. */
  clockOffset(): number {
    if (this.serverAt === undefined) return 0;
    const offset = this.serverAt - this.localAt * 1000;
    return Math.abs(offset) < NEGLIGIBLE_SKEW ? 0 : Math.round(offset);
  }
}
