// Every operation of the table has a decided effect on a sync replica: it
// reads, changes only Outpost's own state, is replicated (has a push spec), or
// is refused. The lists below are deliberate: a new operation that writes
// platform data fails here until someone decides which it is.
import { describe, expect, it } from 'vitest';
import { writesPlatformData } from '../../src-shared/api/operation';
import { operationList } from '../../src-shared/operations';
import { resourceCatalog } from '../../src-main/sync/resources';

const specFor = (operation: string) => resourceCatalog.specFor(operation);
const replicatedOperations = () => resourceCatalog.replicatedOperations();

type OnReplica = 'read' | 'local' | 'replicated' | 'refused';
const onReplica = (op: (typeof operationList)[number]): OnReplica => {
  if (specFor(op.name)) return 'replicated';
  // A batch runs each item as one of its operations: replicated when each of them is.
  if ('eachAs' in op && op.eachAs) return op.eachAs.every((each) => specFor(each)) ? 'replicated' : 'refused';
  if (writesPlatformData(op)) return 'refused';
  return op.effect ?? 'read';
};
const named = (kind: OnReplica) =>
  operationList
    .filter((op) => onReplica(op) === kind)
    .map((op) => op.name)
    .sort();

describe('operations on a sync replica', () => {
  it('marks only non-GET operations with an effect (GET always reads)', () => {
    expect(operationList.filter((op) => op.method === 'GET' && op.effect).map((op) => op.name)).toEqual([]);
  });

  it('replicates only operations of the table that write platform data', () => {
    const table = new Map(operationList.map((op) => [op.name, op]));
    for (const name of replicatedOperations()) {
      expect(table.has(name), `${name} has a push spec but is not in the operation table`).toBe(true);
      expect(writesPlatformData(table.get(name)!), `${name} has a push spec but is marked ${table.get(name)!.effect ?? 'GET'}`).toBe(true);
    }
  });

  it('marks these non-GET operations as reading only', () => {
    expect(
      operationList
        .filter((op) => op.effect === 'read')
        .map((op) => op.name)
        .sort(),
    ).toEqual(['BatchGetRuleVersions', 'BatchGetRules', 'ExplainPolicyDecision', 'TestSyncRemote', 'ValidatePolicy']);
  });

  it('marks these as changing only local sync state', () => {
    expect(named('local')).toEqual([
      'AdoptPreLinkRecords',
      'ConfigureSyncRemote',
      'DeleteSyncRemote',
      'DismissSyncConflict',
      'DismissSyncEntry',
      'RetrySyncEntry',
      'SyncNow',
      'UndoSyncConflict',
    ]);
  });

  it('refuses exactly these platform writes (no push spec): add a spec or mark the effect to change it', () => {
    expect(named('refused')).toEqual([
      'ArchiveAsset',
      'ArchiveRule',
      'BatchArchiveChannels',
      'BatchArchiveRules',
      'BatchDeleteRemoteFiles',
      'BatchDeleteRules',
      'BatchUnarchiveChannels',
      'BatchUnarchiveRules',
      'BatchUndeleteRules',
      'BatchUpdateRules',
      'CreateAdhocRun',
      'CreateAsset',
      'CreateAutomaticRunAssociationForAssets',
      'CreateChannel',
      'CreateRemoteFile',
      'CreateRule',
      'CreateRun',
      'CreateTag',
      'CreateUnit',
      'DeleteAsset',
      'DeleteRemoteFile',
      'DeleteRule',
      'DeleteRun',
      'GenerateToken',
      'StopRun',
      'UnarchiveRule',
      'UndeleteRule',
      'UpdateAsset',
      'UpdateChannel',
      'UpdateRemoteFile',
      'UpdateRule',
      'UpdateRun',
    ]);
  });
});
