// The connection (typed client + platform) handed to every view through Svelte context.
import { getContext, setContext } from 'svelte';
import type { CommandBus } from './keyboard/commands';
import type { NavigationState } from './state/navigation.svelte';
import type { SyncMonitor } from './state/syncMonitor.svelte';
import type { Connection } from './transport';

const KEY = Symbol('outpost.connection');
const NAV_KEY = Symbol('outpost.navigation');
const SYNC_KEY = Symbol('outpost.sync');
const COMMANDS_KEY = Symbol('outpost.commands');

export function setConnection(connection: Connection): void {
  setContext(KEY, connection);
}

export function getConnection(): Connection {
  const connection = getContext<Connection | undefined>(KEY);
  if (!connection) throw new Error('no connection in context (views must be rendered inside App)');
  return connection;
}

export function setNavigation(nav: NavigationState): void {
  setContext(NAV_KEY, nav);
}

export function getNavigation(): NavigationState {
  const nav = getContext<NavigationState | undefined>(NAV_KEY);
  if (!nav) throw new Error('no navigation in context (views must be rendered inside App)');
  return nav;
}

/** The app's one live sync status (navigation badge and Sync view). */
export function setSyncMonitor(monitor: SyncMonitor): void {
  setContext(SYNC_KEY, monitor);
}

export function getSyncMonitor(): SyncMonitor {
  const monitor = getContext<SyncMonitor | undefined>(SYNC_KEY);
  if (!monitor) throw new Error('no sync monitor in context (views must be rendered inside App)');
  return monitor;
}

/** Where the view on screen registers its key commands. */
export function setCommands(bus: CommandBus): void {
  setContext(COMMANDS_KEY, bus);
}

export function getCommands(): CommandBus {
  const bus = getContext<CommandBus | undefined>(COMMANDS_KEY);
  if (!bus) throw new Error('no command bus in context (views must be rendered inside App)');
  return bus;
}
