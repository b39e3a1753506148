// The IPC contract between the sandboxed preload and the main process. Only
// type imports here: the preload bundle must contain nothing but this and
// `electron`.
// (The bridge's types are shared with the renderer.)
export type {
  BridgeEvent,
  BridgeReply,
  BridgeResult,
  DesktopBridge,
  OutpostBridge,
  ProfileInfo,
  ProfileKind,
} from '../../src-shared/bridge';

/** ipcRenderer.invoke(INVOKE_CHANNEL, operationName, request) -> BridgeReply. */
export const INVOKE_CHANNEL = 'outpost:invoke';
/** main -> renderer push events (sync status and the like). */
export const EVENT_CHANNEL = 'outpost:event';
/** ipcRenderer.invoke(PROFILE_CHANNEL, 'current') or (PROFILE_CHANNEL, 'open', 'real' | 'demo') -> ProfileInfo. */
export const PROFILE_CHANNEL = 'outpost:profile';

/**
 * The `file` of an upload operation (input: multipart) over IPC: the content
 * itself. The main process writes it to a temporary file; it never accepts a path.
 */
export interface IpcFile {
  fileName: string;
  mimeType?: string;
  bytes: Uint8Array;
}
