// Bulk insertion of already-validated annotation records (demo seed,
// benchmarks, imports): prepared statements in the caller's transaction, no
// per-row validation or history. The API's CreateAnnotation path validates.
import type { Db } from '../../db/database';

export interface AnnotationRecord {
  id: string;
  organizationId: string;
  name: string;
  description: string;
  startTime: number;
  endTime: number;
  createdByUserId: string;
  createdDate: number;
  runId: string | null;
  state: number | null;
  assignedToUserId: string;
  annotationType: number;
  archivedDate: number | null;
  tags: readonly string[];
  assetIds: readonly string[];
  channelIds: readonly string[];
  /** [key, type number, string, number, boolean] */
  metadata: readonly (readonly [string, number, string | null, number | null, number | null])[];
}

export interface AnnotationBulkInserter {
  /** Inserts one record; returns its pk, or undefined when the id already exists. */
  insert(r: AnnotationRecord): number | undefined;
}

export function annotationBulkInserter(db: Db): AnnotationBulkInserter {
  const raw = db.raw;
  const annotation = raw.prepare(
    `INSERT OR IGNORE INTO annotations(id, organization_id, name, description, start_time, end_time, created_by_user_id, modified_by_user_id,
       created_date, modified_date, run_id, state, assigned_to_user_id, annotation_type, archived_date)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const tag = raw.prepare('INSERT INTO annotation_tags(annotation_pk, tag_name, position) VALUES (?, ?, ?)');
  const asset = raw.prepare('INSERT INTO annotation_assets(annotation_pk, asset_id, position) VALUES (?, ?, ?)');
  const channel = raw.prepare('INSERT INTO annotation_linked_channels(annotation_pk, position, kind, channel_id) VALUES (?, ?, 1, ?)');
  const meta = raw.prepare('INSERT INTO annotation_metadata(annotation_pk, key, type, string_value, number_value, boolean_value, position) VALUES (?, ?, ?, ?, ?, ?, ?)');
  return {
    insert(r) {
      const info = annotation.run(
        r.id, r.organizationId, r.name, r.description, r.startTime, r.endTime, r.createdByUserId, r.createdByUserId,
        r.createdDate, r.createdDate, r.runId, r.state, r.assignedToUserId, r.annotationType, r.archivedDate,
      );
      if (!info.changes) return undefined;
      const pk = Number(info.lastInsertRowid);
      for (let i = 0; i < r.tags.length; i++) tag.run(pk, r.tags[i], i);
      for (let i = 0; i < r.assetIds.length; i++) asset.run(pk, r.assetIds[i], i);
      for (let i = 0; i < r.channelIds.length; i++) channel.run(pk, i, r.channelIds[i]);
      for (let i = 0; i < r.metadata.length; i++) {
        const m = r.metadata[i];
        meta.run(pk, m[0], m[1], m[2], m[3], m[4], i);
      }
      return pk;
    },
  };
}
