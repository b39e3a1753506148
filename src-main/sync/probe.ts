// Whether the remote answers at all: GET /api/v1/ping (public, cheap). Any HTTP
// answer counts (even an error status: something is there to sync with); no
// answer within the timeout, a refused connection or a DNS failure does not.
import { operations } from '../../src-shared/operations';

export async function remoteAnswers(baseUrl: string, timeoutMs: number): Promise<boolean> {
  try {
    const res = await fetch(baseUrl.replace(/\/+$/, '') + operations.Ping.path, { signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer().catch(() => undefined);
    return true;
  } catch {
    return false;
  }
}
