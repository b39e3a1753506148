// The desktop engine host's state as the window shows it: the main process
// pushes `engine-status` events (host/supervisor.ts states) when the host
// process starts, dies and is restarted, or cannot run. While it is down the
// window says so instead of hanging; after a restart it says that a change
// made at that moment may need repeating (calls in flight failed UNAVAILABLE).
import type { BridgeEvent } from '../transport/bridge';

/** `unreachable`: the browser's `outpost serve` does not answer (its ping fails); it is asked again until it does. */
export type EngineState = 'starting' | 'ready' | 'restarting' | 'failed' | 'stopped' | 'unreachable';
const STATES: readonly string[] = ['starting', 'ready', 'restarting', 'failed', 'stopped'];

/** How often the browser asks whether `outpost serve` answers. */
export const PING_MS = 3_000;

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

  /** Runs when a restarted engine answers again (views read what they show again: calls failed meanwhile). */
  #onBack: () => void = () => {};

  /**
   * Follows the main process's events; `onBack` runs when the engine host is back after a restart (the desktop
   * supervisor pings it and replaces one that stops answering). Returns the unsubscribe function.
   */
  start(onEvent: (listener: (event: BridgeEvent) => void) => () => void, onBack: () => void = () => {}): () => void {
    this.#onBack = onBack;
    const stop = onEvent((event) => this.event(event));
    return () => {
      this.#onBack = () => {};
      stop();
    };
  }

  event(event: BridgeEvent): void {
    if (event.type !== 'engine-status' || typeof event.state !== 'string' || !STATES.includes(event.state)) return;
    const next = event.state as EngineState;
    const back = next === 'ready' && this.state === 'restarting';
    if (back) this.recovered = true;
    if (next === 'restarting' || next === 'failed') this.recovered = false;
    this.state = next;
    this.detail = typeof event.detail === 'string' ? event.detail : '';
    if (back) this.#onBack();
  }

  /**
   * The browser's engine is the server: asks `ping` every `everyMs` whether it answers. Unreachable while it does
   * not; `onBack` runs when it answers again (views read what they show again). Returns the stop function.
   */
  watchServer(ping: () => Promise<unknown>, onBack: () => void, everyMs = PING_MS): () => void {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      const answered = await ping().then(
        () => true,
        () => false,
      );
      if (stopped) return;
      if (!answered) this.state = 'unreachable';
      else if (this.state === 'unreachable') {
        this.state = 'ready';
        onBack();
      }
      timer = setTimeout(() => void ask(), everyMs);
    };
    void ask();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }

  /** Whether the engine answers (the sidebar's light). */
  get answering(): boolean {
    return this.state === 'ready';
  }

  /** The engine stopped answering (not merely starting): its one notice stands for the views' failed calls. */
  get down(): boolean {
    return this.state === 'restarting' || this.state === 'failed' || this.state === 'unreachable' || this.state === 'stopped';
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
      case 'unreachable':
        return {
          tone: 'error',
          title: 'outpost serve does not answer',
          detail: 'Trying again by itself; what is on screen may be out of date until it answers.',
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
