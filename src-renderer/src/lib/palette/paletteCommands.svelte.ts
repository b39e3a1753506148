// How the app and a view declare their palette commands: one call in their
// script. The commands are offered while the caller is mounted (an $effect's
// cleanup removes them) and read each time the palette opens.
import { getContext, setContext, untrack } from 'svelte';
import type { CommandProvider, CommandRegistry } from './commandRegistry';

const PALETTE_KEY = Symbol('outpost.palette');

export function setPaletteRegistry(registry: CommandRegistry): void {
  setContext(PALETTE_KEY, registry);
}

/** Offers `provider`'s commands in the palette while the calling component is mounted. */
export function paletteCommands(provider: CommandProvider): void {
  const registry = getContext<CommandRegistry | undefined>(PALETTE_KEY);
  if (!registry) return; // rendered outside App (a component spec): no palette
  $effect(() => untrack(() => registry.register(provider)));
}
