// The push's floor (#33 goal 5): the same requests the user's offline edits
// queued (the outbox's operation and request, as written), sent straight to the
// remote by a plain keep-alive HTTP client with the same concurrency: no
// outbox bookkeeping, no id translation, no merge base, no pull after it.
import { Agent, request as httpRequest } from 'node:http';
import { httpRequestOf } from '../../src-shared/httpRequest';
import type { OperationDef } from '../../src-shared/api/operation';
import { operations } from '../../src-shared/operations';

export interface PlainCall {
  readonly operation: string;
  readonly request: Record<string, unknown>;
}

/** Sends every call, `concurrency` at a time, on kept-alive connections; counts the answers that were not 2xx. */
export async function sendPlain(
  baseUrl: string,
  apiKey: string,
  calls: readonly PlainCall[],
  concurrency: number,
): Promise<{ sent: number; notOk: number; firstRefusals: string[] }> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  let next = 0;
  let notOk = 0;
  const firstRefusals: string[] = [];
  const send = (call: PlainCall) =>
    new Promise<void>((resolve, reject) => {
      const op = (operations as Record<string, OperationDef>)[call.operation];
      const http = httpRequestOf(baseUrl, op, call.request, apiKey);
      const headers = http.json === undefined ? http.headers : { ...http.headers, 'Content-Type': 'application/json' };
      const req = httpRequest(http.url, { method: http.method, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if ((res.statusCode ?? 0) >= 300 && ++notOk <= 3)
            firstRefusals.push(`${call.operation} ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 160)}`);
          resolve();
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(http.json);
    });
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < calls.length) await send(calls[next++]);
      }),
    );
  } finally {
    agent.destroy();
  }
  return { sent: calls.length, notOk, firstRefusals };
}
