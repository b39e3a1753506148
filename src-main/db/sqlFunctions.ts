// SQL functions that layers above the database define (the filter layer's
// cel_matches): each layer registers its own when its module loads, and every
// connection gets it, whether opened before or after. Code that emits a call
// to such a function imports the module that registers it, so the function
// exists before any statement naming it is prepared.
import type { Database as RawDatabase } from 'better-sqlite3';

type Setup = (raw: RawDatabase) => void;

const setups: Setup[] = [];
/** Connections opened so far (weakly held: a connection dropped without close is not kept alive). */
const connections = new Set<WeakRef<RawDatabase>>();

/** Defines SQL functions on every open connection and on each one opened later. */
export function addSqlFunctions(setup: Setup): void {
  setups.push(setup);
  for (const raw of openConnections()) setup(raw);
}

/** Gives a newly opened connection the functions defined so far (openDatabase calls it). */
export function setUpConnection(raw: RawDatabase): void {
  for (const setup of setups) setup(raw);
  openConnections(); // forgets the closed ones
  connections.add(new WeakRef(raw));
}

function openConnections(): RawDatabase[] {
  const open: RawDatabase[] = [];
  for (const ref of connections) {
    const raw = ref.deref();
    if (raw?.open) open.push(raw);
    else connections.delete(ref);
  }
  return open;
}
