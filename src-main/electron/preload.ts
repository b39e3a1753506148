// The sandboxed preload: exposes exactly one narrow API to the renderer as
// `window.outpost` (see channels.ts). No Node access, no raw ipcRenderer.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  EVENT_CHANNEL,
  INVOKE_CHANNEL,
  PROFILE_CHANNEL,
  type BridgeEvent,
  type BridgeReply,
  type DesktopBridge,
  type ProfileInfo,
} from './channels';

const bridge: DesktopBridge = {
  invoke: (operation, request = {}) => {
    if (typeof operation !== 'string') return Promise.reject(new TypeError('operation must be a string'));
    // The reply as main forwarded it (JSON text for a JSON response): the renderer's transport parses it
    // once, so the context bridge copies one string rather than a page's object graph.
    return ipcRenderer.invoke(INVOKE_CHANNEL, operation, request) as Promise<BridgeReply>;
  },
  onEvent: (listener) => {
    if (typeof listener !== 'function') throw new TypeError('listener must be a function');
    // Never hand the IpcRendererEvent (it exposes `sender`) to the page.
    const wrapped = (_event: IpcRendererEvent, payload: BridgeEvent) => listener(payload);
    ipcRenderer.on(EVENT_CHANNEL, wrapped);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, wrapped);
    };
  },
  profiles: {
    current: () => ipcRenderer.invoke(PROFILE_CHANNEL, 'current') as Promise<ProfileInfo>,
    open: (kind) => ipcRenderer.invoke(PROFILE_CHANNEL, 'open', kind) as Promise<ProfileInfo>,
  },
};

contextBridge.exposeInMainWorld('outpost', bridge);
