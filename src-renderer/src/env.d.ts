/// <reference types="svelte" />
/// <reference types="vite/client" />

import type { DesktopBridge } from './lib/transport/bridge';

declare global {
  interface Window {
    /** Present only in the desktop app (exposed by the sandboxed preload). */
    outpost?: DesktopBridge;
  }
}

export {};
