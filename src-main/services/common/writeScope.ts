// An asynchronous write (one that awaits before its single write transaction,
// such as ImportTestReport: parse first, then copy in one transaction) tells
// whoever started it what it wrote from INSIDE that transaction. The sync
// outbox uses this to append its entry atomically with the write, exactly as
// it does for synchronous writes (sync/outbox.ts). AsyncLocalStorage carries
// the listener across the awaits of that one request only, so concurrent
// requests never see each other's listener.
import { AsyncLocalStorage } from 'node:async_hooks';

type Listener = (response: unknown) => void;

const scope = new AsyncLocalStorage<Listener>();

/** Runs `fn` (which may return a promise) with `listener` receiving what its write transaction reports. */
export function withWriteListener<T>(listener: Listener, fn: () => T): T {
  return scope.run(listener, fn);
}

/** Called by an asynchronous write inside its write transaction, with the operation's response. A throw rolls the write back. */
export function reportWrite(response: unknown): void {
  scope.getStore()?.(response);
}
