// Child process of preLink.test.ts: opens a linked, synced data directory,
// adopts its pre-link records as the owner, and dies with SIGKILL the moment
// the adoption has returned: no sync, no close, no exit handlers.
import { openEngine } from '../../src-main/engine';
import { invoke } from '../../src-main/services/invoke';
import { localCaller } from '../../src-main/sync/identity';
import { syncReplica } from '../../src-main/sync/assembly/syncReplica';
import { createMemorySecretStore } from '../../src-main/sync/secretStore';

const engine = openEngine(process.argv[2], { replica: syncReplica({ secrets: createMemorySecretStore() }) });
const result = (await invoke(
  { engine, db: engine.db, caller: { ...localCaller(engine.db)!, owner: true } },
  'AdoptPreLinkRecords',
  {},
)) as { adopted: { count: number }[] };
process.stdout.write(`adopted ${result.adopted.reduce((n, k) => n + k.count, 0)}\n`, () => process.kill(process.pid, 'SIGKILL'));
