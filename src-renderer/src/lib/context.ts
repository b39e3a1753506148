// The connection (typed client + platform) handed to every view through Svelte context.
import { getContext, setContext } from 'svelte';
import type { Connection } from './transport';

const KEY = Symbol('outpost.connection');

export function setConnection(connection: Connection): void {
  setContext(KEY, connection);
}

export function getConnection(): Connection {
  const connection = getContext<Connection | undefined>(KEY);
  if (!connection) throw new Error('no connection in context (views must be rendered inside App)');
  return connection;
}
