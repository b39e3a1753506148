// Applying remote state to the local store, shared by pull (pages) and push
// (the records the remote returns). Writes go straight to SQLite (bulk
// prepared statements), never through invoke(), so they create no outbox
// entries. When the remote wins a field that pending local entries change,
// the field is dropped from those entries (dropField).
import type { AnnotationLog } from '../../src-shared/api/annotationLogs';
import type { Annotation } from '../../src-shared/api/annotations';
import type { LoadedIds } from '../db/bulkLoad';
import type { Db } from '../db/database';
import { dropTargetField, finishEntry, hasPending, isOpen, loadEntry, removeTarget, setRequest, targetsOf } from './outbox';
import { ANNOTATION, AnnotationWriter, applyAnnotations } from './resources/annotations';
import { applyAnnotationLogs, deleteSideEffectLogs, LogWriter } from './resources/annotationLogs';
import { applySavedSearches } from './resources/savedSearches';
import { applyPolicies } from './resources/policies';
import { applyArtifacts } from './resources/artifacts';
import type { Artifact, ArtifactVersion } from '../../src-shared/api/artifacts';
import type { Policy } from '../../src-shared/api/policies';
import type { SavedSearch } from '../../src-shared/api/savedSearches';
import { specFor } from './specs';

export interface ApplyStats {
  inserted: number;
  updated: number;
  unchanged: number;
  conflicts: number;
  adopted: number;
}

export const emptyApplyStats = (): ApplyStats => ({ inserted: 0, updated: 0, unchanged: 0, conflicts: 0, adopted: 0 });

/**
 * How many records `fn` inserted or changed locally, read from the stats (inserted + updated; a record re-read
 * as it is here counts as unchanged): what a pull reports as arrived.
 */
export function changedBy(stats: ApplyStats, fn: () => void): number {
  const before = stats.inserted + stats.updated;
  fn();
  return stats.inserted + stats.updated - before;
}

/**
 * A comparable picture of a record's stored state (the rows the queries return, in their order), taken before
 * and after applying a remote version to tell whether anything was actually written. Queries must not select
 * values that a rewrite of the same data changes (pks of re-inserted child rows).
 */
export function storedState(db: Db, queries: readonly (readonly [sql: string, params: readonly unknown[]])[]): string {
  return JSON.stringify(queries.map(([sql, params]) => db.all(sql, params as never)));
}

export interface ApplyContext {
  readonly db: Db;
  /** Our user on the remote (recognises our own logs). */
  readonly userId: string;
  /** Added to local edit times before comparing them with server times. */
  readonly clockOffset: number;
  readonly stats: ApplyStats;
  /** The entry whose result is being applied: its fields no longer count as pending. */
  readonly excludeSeq?: number;
  /** Overwrite even when the remote version looks unchanged (a refetch after a failed entry). */
  readonly force?: boolean;
  /** By remote annotation id: the history logs the remote wrote for a create of ours that a pulled page adopts. */
  readonly echoes?: ReadonlyMap<string, readonly AnnotationLog[]>;
  dropField(seq: number, resource: string, recordId: string, field: string): void;
}

/** Gives up an open entry entirely (it lost every field it changed): its local history rows go with it. */
export function supersede(db: Db, seq: number, message: string): void {
  const entry = loadEntry(db, seq);
  if (!isOpen(entry)) return;
  deleteSideEffectLogs(db, entry.sideEffectLogIds);
  for (const c of entry.createdIds) {
    if (c.resource === 'annotation_log') {
      db.run('DELETE FROM annotation_logs WHERE id = ?', [c.id]);
      db.run('DELETE FROM sync_id_map WHERE local_id = ?', [c.id]);
    }
  }
  finishEntry(db, seq, 'superseded', { message });
}

export function dropField(db: Db, seq: number, resource: string, recordId: string, field: string): void {
  const entry = loadEntry(db, seq);
  if (!isOpen(entry)) return;
  const spec = specFor(entry.operation);
  const next = spec?.dropField ? spec.dropField(entry.request, recordId, field) : null;
  if (next === null) {
    supersede(db, seq, `the remote's later value of ${field} won`);
    return;
  }
  setRequest(db, seq, next);
  dropTargetField(db, seq, resource, recordId, field);
  const target = targetsOf(db, seq).find((t) => t.resource === resource && t.recordId === recordId);
  if (target && target.fields.length === 0 && next.annotationIds) removeTarget(db, seq, resource, recordId);
}

export interface Applier {
  readonly stats: ApplyStats;
  /** `loaded`: the ids an initial bulk load inserted so far (pull.ts tracksLoadedIds). */
  annotations(list: readonly Annotation[], options?: { excludeSeq?: number; force?: boolean; loaded?: LoadedIds; echoes?: ApplyContext['echoes'] }): void;
  /** Returns annotation ids the logs refer to that are not local yet. */
  annotationLogs(list: readonly AnnotationLog[], loaded?: LoadedIds): string[];
  savedSearches(list: readonly SavedSearch[], options?: { excludeSeq?: number }): void;
  /** `force`: apply even at the same modified date (the copy here changed without it: a refused edit, refetch.ts). */
  policies(list: readonly Policy[], options?: { excludeSeq?: number; force?: boolean }): void;
  /** `versionsOf`: the versions fetched for an artifact (content already stored), if any. */
  artifacts(list: readonly Artifact[], options?: { excludeSeq?: number; force?: boolean; versionsOf?: (a: Artifact) => readonly ArtifactVersion[] | undefined }): void;
}

// Prepared statements are reused across pages and push results (preparing them per call costs more than the writes).
const annotationWriters = new WeakMap<Db, AnnotationWriter>();
const logWriters = new WeakMap<Db, LogWriter>();
const cached = <T>(map: WeakMap<Db, T>, db: Db, make: () => T): T => {
  let w = map.get(db);
  if (!w) map.set(db, (w = make()));
  return w;
};

export function createApplier(db: Db, userId: string, clockOffset: number, stats: ApplyStats = emptyApplyStats()): Applier {
  const context = (extra: Pick<ApplyContext, 'excludeSeq' | 'force' | 'echoes'> = {}): ApplyContext => ({
    db,
    userId,
    clockOffset,
    stats,
    ...extra,
    dropField: (seq, resource, recordId, field) => dropField(db, seq, resource, recordId, field),
  });
  return {
    stats,
    annotations(list, options = {}) {
      // A push result matters now only for records that still have pending edits (it becomes their merge base);
      // the others get the remote's version from the pull that follows every push.
      const apply =
        options.excludeSeq === undefined
          ? list
          : list.filter((a) => hasPending(db, ANNOTATION, a.annotationId, options.excludeSeq) || !db.get('SELECT 1 FROM annotations WHERE id = ?', [a.annotationId]));
      if (apply.length === 0) return;
      const { loaded, ...rest } = options;
      db.tx(() => applyAnnotations(context(rest), apply, cached(annotationWriters, db, () => new AnnotationWriter(db)), loaded));
    },
    annotationLogs(list, loaded) {
      return db.tx(() => applyAnnotationLogs(context(), list, cached(logWriters, db, () => new LogWriter(db)), loaded));
    },
    savedSearches(list, options = {}) {
      db.tx(() => applySavedSearches(context(options), list));
    },
    policies(list, options = {}) {
      db.tx(() => applyPolicies(context(options), list));
    },
    artifacts(list, { versionsOf, ...options } = {}) {
      db.tx(() => applyArtifacts(context(options), list, versionsOf));
    },
  };
}
