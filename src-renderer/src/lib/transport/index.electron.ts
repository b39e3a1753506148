// Desktop transport: every call goes through the preload's one narrow
// function, window.outpost.invoke(operation, request). The main process
// validates and runs it; errors come back as google.rpc.Status bodies.
import type { Transport } from '../../../../src-shared/client';
import { ApiError } from '../../../../src-shared/errors';
import type { OutpostBridge } from './bridge';

/** IPC needs structured-clone data; Svelte state proxies and class instances are not. Requests are JSON by definition. */
function plain(request: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(request)) as Record<string, unknown>;
}

export function electronTransport(bridge: OutpostBridge): Transport {
  return {
    async call(name, _op, request) {
      const result = await bridge.invoke(name, plain(request));
      if (!result.ok) throw ApiError.fromBody(result.error);
      return result.data;
    },
  };
}
