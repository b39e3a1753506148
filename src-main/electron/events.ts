// main -> renderer push events (`window.outpost.onEvent`). The sync worker
// reports its status through publish(); the renderer subscribes.
import { EVENT_CHANNEL, type BridgeEvent } from './channels';

/** The part of Electron's WebContents this needs. */
export interface EventTarget {
  isDestroyed(): boolean;
  send(channel: string, payload: unknown): void;
}

export type EventPublisher = (event: BridgeEvent) => void;

/** A publisher that sends each event to every live target (`targets` is read at publish time). */
export function createEventPublisher(targets: () => readonly EventTarget[]): EventPublisher {
  return (event) => {
    for (const target of targets()) {
      if (!target.isDestroyed()) target.send(EVENT_CHANNEL, event);
    }
  };
}
