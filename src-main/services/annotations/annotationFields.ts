// An annotation's fields, declared once: as stored (the columns of its row,
// which the store writes and the page queries read in this order) and as a
// client changes them (the update_mask paths UpdateAnnotation takes, which
// sync merges and pushes and the platform's request gate checks).

/** The columns of an annotation row besides its pk and id, in stored order. */
export const ANNOTATION_COLUMNS = [
  'organization_id',
  'name',
  'description',
  'start_time',
  'end_time',
  'created_by_user_id',
  'modified_by_user_id',
  'created_date',
  'modified_date',
  'run_id',
  'state',
  'assigned_to_user_id',
  'annotation_type',
  'legend_config',
  'created_by_condition_id',
  'created_by_rule_condition_version_id',
  'report_rule_version_id',
  'pending',
  'deleted_date',
  'archived_date',
  'batched_triggers',
  'is_noisy_rule',
] as const;

export type AnnotationColumn = (typeof ANNOTATION_COLUMNS)[number];

/** The fields a client edits, by update_mask path (reference §3); each is a synced field of the same name. */
export const ANNOTATION_EDITABLE_PATHS = [
  'name',
  'description',
  'start_time',
  'end_time',
  'assigned_to_user_id',
  'state',
  'tags',
  'legend_config',
  'linked_channels',
  'metadata',
] as const;

/** The editable fields stored in a column of the same name (the others live in child tables). */
export const ANNOTATION_EDITABLE_COLUMNS = ANNOTATION_EDITABLE_PATHS.filter(
  (p): p is Extract<(typeof ANNOTATION_EDITABLE_PATHS)[number], AnnotationColumn> => (ANNOTATION_COLUMNS as readonly string[]).includes(p),
);

/** update_mask paths UpdateAnnotation may change: the edits, and the archive (a date archives at that date, none restores). */
export const ANNOTATION_UPDATABLE_PATHS = [...ANNOTATION_EDITABLE_PATHS, 'deleted_date', 'archived_date'] as const;
