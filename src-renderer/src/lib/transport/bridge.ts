// What the renderer expects of `window.outpost` in the desktop app: the
// preload implements it (src-main/electron/preload.ts); both take the types
// from src-shared/bridge.ts.
export type {
  BridgeEvent,
  BridgeReply,
  BridgeResult,
  DesktopBridge,
  OutpostBridge,
  ProfileInfo,
  ProfileKind,
  ProfileSwitch,
} from '../../../../src-shared/bridge';
