// The IPC adapter: every `invoke(operation, request)` from a renderer is
// checked here, in the main process — the sender frame must be our own
// renderer — and then forwarded to the engine host (host/supervisor.ts),
// where host/dispatch.ts checks the operation against the operation table and
// invoke() validates the request with the operation's zod schema exactly as
// the HTTP router does. Errors come back as google.rpc.Status bodies. Replies
// are forwarded as the host sent them (a JSON response as its text, see
// BridgeReply): main never parses or re-clones a result's object graph.
//
// Plain module over an `ipcMain`-like object so it is unit-testable in Node;
// it imports neither the engine nor the database (main never opens it).
import { ApiError } from '../../src-shared/errors';
import { INVOKE_CHANNEL, type BridgeReply } from './channels';

/** The part of Electron's IpcMainInvokeEvent the bridge reads. */
export interface InvokeEventLike {
  readonly senderFrame: { readonly url: string } | null | undefined;
}

/** The part of Electron's `ipcMain` the bridge uses. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown> | unknown): void;
  removeHandler(channel: string): void;
}

export interface IpcBridgeOptions {
  /** Runs one call in the engine (the supervisor's `forward`; in-process `dispatch` in unit tests). Never rejects. */
  readonly call: (operation: string, request: unknown) => Promise<BridgeReply>;
  /** True when `url` (the sender frame's URL) is our renderer. */
  readonly isTrustedSender: (url: string) => boolean;
}

/** Handles one `invoke(operation, request)` from a renderer. Never throws. */
export async function handleInvoke(
  options: IpcBridgeOptions,
  event: InvokeEventLike,
  operation: unknown,
  request: unknown,
): Promise<BridgeReply> {
  const url = event.senderFrame?.url;
  if (!url || !options.isTrustedSender(url)) {
    return { ok: false, error: ApiError.permissionDenied('IPC call from an untrusted frame').toBody() };
  }
  if (typeof operation !== 'string')
    return { ok: false, error: ApiError.unimplemented(`unknown operation '${String(operation).slice(0, 100)}'`).toBody() };
  return options.call(operation, request);
}

/** Registers the invoke handler; returns a function that unregisters it. */
export function registerIpcBridge(ipcMain: IpcMainLike, options: IpcBridgeOptions): () => void {
  ipcMain.handle(INVOKE_CHANNEL, (event, operation, request) => handleInvoke(options, event, operation, request));
  return () => ipcMain.removeHandler(INVOKE_CHANNEL);
}

/**
 * The sender check: the frame must be a document of our renderer, i.e. under
 * `rendererUrl` (the app:// origin in production, the dev server in development).
 */
export function trustedSenderCheck(rendererUrls: readonly string[]): (url: string) => boolean {
  const allowed = rendererUrls.map((u) => new URL(u));
  return (url) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    return allowed.some((a) => parsed.protocol === a.protocol && parsed.host === a.host && parsed.pathname.startsWith(a.pathname));
  };
}
