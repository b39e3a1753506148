// The engine host's environment in the packaged app. Its own module (no
// `electron` import) so tests read the list it strips.
/**
 * What can make a process load code other than the app's own: Node's preload and module path, Outpost's own
 * override of the SQLite binding (database.ts), and Electron's Node mode. The packaged app's engine host never
 * receives them (from the sources, `npm start` passes OUTPOST_SQLITE_BINDING on purpose).
 */
export const LOADER_OVERRIDES = ['OUTPOST_SQLITE_BINDING', 'NODE_OPTIONS', 'NODE_PATH', 'ELECTRON_RUN_AS_NODE'] as const;

/** The engine host's environment: main's, less the loader overrides when packaged (undefined: main's as it is). */
export function hostEnvironment(env: NodeJS.ProcessEnv, isPackaged: boolean): NodeJS.ProcessEnv | undefined {
  if (!isPackaged) return undefined;
  const clean = { ...env };
  for (const name of LOADER_OVERRIDES) delete clean[name];
  return clean;
}
