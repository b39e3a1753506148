// The layer rules (docs/ARCHITECTURE.md): renderer -> shared <- main; inside
// main, db <- filter <- auth <- engine <- services <- sync <- grpc <- http, host, cli
// (the layers above db register what it runs for them: filter its SQL
// function, auth the default policy a migration writes); the
// engine host (host/) runs the engine in its own process, and electron (which
// never opens the database) talks to it through host/supervisor.ts.
// Each area of the source tree, and the areas it may import.
export type Area =
  | 'shared'
  | 'renderer'
  | 'db'
  | 'filter'
  | 'auth'
  | 'engine'
  | 'services'
  | 'seed'
  | 'sync'
  | 'grpc'
  | 'http'
  | 'host'
  | 'electron'
  | 'cli';

const DB: readonly Area[] = ['shared', 'db'];
const FILTER: readonly Area[] = [...DB, 'filter'];
const BASE: readonly Area[] = [...FILTER, 'auth'];
const ENGINE: readonly Area[] = [...BASE, 'engine'];
const SERVICES: readonly Area[] = [...ENGINE, 'services'];
const HOSTS: readonly Area[] = [...SERVICES, 'sync', 'seed'];

export const MAY_IMPORT: Readonly<Record<Area, readonly Area[]>> = {
  shared: ['shared'],
  renderer: ['renderer', 'shared'],
  db: DB,
  filter: FILTER,
  auth: BASE,
  engine: ENGINE,
  services: SERVICES,
  // The demo data is written through the services (a host runs it).
  seed: [...SERVICES, 'seed'],
  sync: [...SERVICES, 'sync'],
  // The gRPC, gRPC-Web and Connect front door: a host's adapter like http, which serves it on its own port.
  grpc: [...HOSTS, 'grpc'],
  http: [...HOSTS, 'grpc', 'http'],
  host: [...HOSTS, 'http', 'host'],
  // Main keeps the window and forwards to the engine host: no engine, services or sync of its own
  // (tests/desktop/electronMain.test.ts proves the built bundle loads no SQLite).
  electron: ['shared', 'db', 'http', 'host', 'electron'],
  cli: [...HOSTS, 'grpc', 'http', 'cli'],
};

/** The area a source file (repository-relative) belongs to; undefined outside the layered tree (tests, bench). */
export function areaOf(file: string): Area | undefined {
  if (file.startsWith('src-shared/')) return 'shared';
  if (file.startsWith('src-renderer/')) return 'renderer';
  const m = /^src-main\/([^/.]+)/.exec(file);
  return m ? (m[1] as Area) : undefined;
}

export interface LayerViolation {
  readonly from: string;
  readonly to: string;
}
