// The palette's commands, declared where they live: the app registers its own
// (views, help) once, and each view registers its commands while it is
// mounted (removed when it unmounts), so the palette lists the app-wide ones
// plus those of the view on screen. A few commands are reachable from any view
// (entry points: "New policy", "Sync now"): from elsewhere, choosing one goes
// to its view and runs the command that view registers under the same id.
import type { ViewId } from '../state/route';

export interface PaletteCommand {
  /** Names the command across registrations (entry points find theirs by it). */
  readonly id: string;
  readonly label: string;
  /** How the palette labels it: an action (default), a view to go to, or another listing of the annotations. */
  readonly kind?: 'action' | 'view' | 'list';
  /** Its keys, as the keyboard help shows them. */
  readonly keys?: readonly string[];
  /** It opens a text field: keys typed before the field has the focus are held for it (keyboard/keyHold.ts). */
  readonly opensInput?: boolean;
  /** Whether it applies now (default: always); a command that does not is not offered. */
  readonly when?: () => boolean;
  readonly run: () => void;
}

/** A command of a view that is offered from any view. */
export interface EntryPoint {
  readonly id: string;
  readonly label: string;
  readonly view: ViewId;
  readonly opensInput?: boolean;
}

export type CommandProvider = () => readonly PaletteCommand[];

export class CommandRegistry {
  readonly #providers = new Set<CommandProvider>();
  readonly #entries: readonly EntryPoint[];
  readonly #go: (view: ViewId) => void;
  /** An entry point chosen away from its view: run once its view registers it. */
  #waiting: string | undefined;

  constructor(entries: readonly EntryPoint[], go: (view: ViewId) => void) {
    this.#entries = entries;
    this.#go = go;
  }

  /** Adds `provider`'s commands (read each time the palette opens) until the returned function is called. */
  register(provider: CommandProvider): () => void {
    this.#providers.add(provider);
    const waiting = this.#waiting;
    const arrived = waiting === undefined ? undefined : provider().find((c) => c.id === waiting);
    if (arrived) {
      this.#waiting = undefined;
      // After the registering view's mount has finished (its other handlers are in place).
      queueMicrotask(() => {
        if (arrived.when?.() ?? true) arrived.run();
      });
    }
    return () => void this.#providers.delete(provider);
  }

  /**
   * What the palette offers now: every registered command that applies (in the order registered), and the entry
   * points of views not on screen (choosing one goes there first).
   */
  available(): PaletteCommand[] {
    const registered = [...this.#providers].flatMap((provider) => provider());
    const ids = new Set(registered.map((c) => c.id));
    const elsewhere = this.#entries
      .filter((e) => !ids.has(e.id))
      .map((e): PaletteCommand => ({ id: e.id, label: e.label, opensInput: e.opensInput, run: () => this.#runOnArrival(e) }));
    return [...registered.filter((c) => c.when?.() ?? true), ...elsewhere];
  }

  #runOnArrival(entry: EntryPoint): void {
    this.#waiting = entry.id;
    this.#go(entry.view);
  }

  /** Anything else chosen in the palette: an entry point still waiting is given up. */
  forgetWaiting(): void {
    this.#waiting = undefined;
  }
}
