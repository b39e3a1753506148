// The replica as the hosts assemble their engine with it:
//   openEngine(dataDir, { replica: syncReplica({ secrets }) })
// It puts together what sync's folders cannot import from one another: the
// catalog of replicated resources (resources/index.ts), the sync operations
// (operations/handlers.ts) and sync's part of the engine (replica.ts).
import type { ReplicaAssembly } from '../../engine';
import { syncHandlers } from '../operations/handlers';
import { createSyncReplica, type ReplicaOptions, type SyncReplica } from '../replica';
import { resourceCatalog } from '../resources';

export function syncReplica(options: ReplicaOptions = {}): ReplicaAssembly<SyncReplica> {
  const handlers = syncHandlers(resourceCatalog);
  return (opened) => createSyncReplica(opened, resourceCatalog, handlers, options);
}
