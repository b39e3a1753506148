// The one place key commands go: the app reads keys (ShortcutReader) and
// handles navigation and help itself; the view on screen registers a handler
// for the rest (list moves, review actions).
import type { Command } from './shortcuts';

/** Handles a command; true when it acted (the key's default is then prevented). */
export type CommandHandler = (command: Command, event: KeyboardEvent) => boolean;

export class CommandBus {
  #handler: CommandHandler | undefined;

  /** The view's handler until the returned function is called (on unmount). */
  register(handler: CommandHandler): () => void {
    this.#handler = handler;
    return () => {
      if (this.#handler === handler) this.#handler = undefined;
    };
  }

  dispatch(command: Command, event: KeyboardEvent): boolean {
    return this.#handler?.(command, event) ?? false;
  }
}
