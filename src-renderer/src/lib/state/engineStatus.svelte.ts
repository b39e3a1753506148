// The desktop engine host's state as the window shows it: the main process
// pushes `engine-status` events (host/supervisor.ts states) when the host
// process starts, dies and is restarted, or cannot run. While it is down the
// window says so instead of hanging; after a restart it says that a change
// made at that moment may need repeating (calls in flight failed UNAVAILABLE).
import type { BridgeEvent } from '../transport/bridge';

export type EngineState = 'starting' | 'ready' | 'restarting' | 'failed' | 'stopped';
const STATES: readonly string[] = ['starting', 'ready', 'restarting', 'failed', 'stopped'];

export interface EngineNotice {
  readonly tone: 'warning' | 'error' | 'info';
  readonly title: string;
  readonly detail: string;
  readonly dismissible: boolean;
}

export class EngineStatus {
  state = $state<EngineState>('ready');
  detail = $state('');
  /** The host died since the window opened and is back: the user is told once, until dismissed. */
  recovered = $state(false);

  /** Follows the main process's events; returns the unsubscribe function. */
  start(onEvent: (listener: (event: BridgeEvent) => void) => () => void): () => void {
    return onEvent((event) => this.event(event));
  }

  event(event: BridgeEvent): void {
    if (event.type !== 'engine-status' || typeof event.state !== 'string' || !STATES.includes(event.state)) return;
    const next = event.state as EngineState;
    if (next === 'ready' && this.state === 'restarting') this.recovered = true;
    if (next === 'restarting' || next === 'failed') this.recovered = false;
    this.state = next;
    this.detail = typeof event.detail === 'string' ? event.detail : '';
  }

  dismiss(): void {
    this.recovered = false;
  }

  /** What the window shows, or undefined while all is well. */
  get notice(): EngineNotice | undefined {
    switch (this.state) {
      case 'restarting':
        return { tone: 'warning', title: 'The local engine stopped and is restarting', detail: this.detail, dismissible: false };
      case 'failed':
        return {
          tone: 'error',
          title: 'The local database cannot be used',
          detail: `${this.detail}. Quit and reopen Outpost; Help › Open Logs Folder shows what happened.`,
          dismissible: false,
        };
      case 'stopped':
        return { tone: 'info', title: 'The local engine has stopped', detail: 'Outpost is closing.', dismissible: false };
      default:
        return this.recovered
          ? {
              tone: 'info',
              title: 'The local engine was restarted',
              detail: 'A change made just before may not have been saved: check it before repeating it.',
              dismissible: true,
            }
          : undefined;
    }
  }
}
