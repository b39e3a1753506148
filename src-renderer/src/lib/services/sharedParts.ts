// Rows of a long list repeat the same few users, metadata keys and values,
// channels, assets, tags and enum names, and JSON.parse gives every row its own
// copy of each. A list that holds 100k annotations keeps one copy of each
// instead (bench/renderer: the JS heap with every result loaded). Shared parts
// are never changed in place: an edit replaces the whole row (PagedList).
import type { Annotation } from './annotationService';

/** Distinct parts kept; past it a new part stays the row's own, so a list of unique values cannot grow the table without end. */
const MAX_PARTS = 20_000;

export class SharedParts {
  readonly #texts = new Map<string, string>();
  readonly #parts = new Map<string, unknown>();
  readonly #maxParts: number;

  constructor(maxParts = MAX_PARTS) {
    this.#maxParts = maxParts;
  }

  /** One copy of `text` for every row that has it. */
  text<T extends string | undefined>(text: T): T {
    if (text === undefined) return text;
    const kept = this.#texts.get(text);
    if (kept !== undefined) return kept as T;
    if (this.#texts.size < this.#maxParts) this.#texts.set(text, text);
    return text;
  }

  /** One copy of a JSON value (object or array) for every row with an equal one. */
  part<T>(value: T): T {
    const key = JSON.stringify(value);
    const kept = this.#parts.get(key);
    if (kept !== undefined) return kept as T;
    if (this.#parts.size < this.#maxParts) this.#parts.set(key, value);
    return value;
  }

  /** The row with its repeated parts shared; changes `row` in place (a row just parsed, not yet shown). */
  annotation(row: Annotation): Annotation {
    row.organizationId = this.text(row.organizationId);
    row.createdByUserId = this.text(row.createdByUserId);
    row.modifiedByUserId = this.text(row.modifiedByUserId);
    row.assignedToUserId = this.text(row.assignedToUserId);
    row.runId = this.text(row.runId);
    row.state = this.text(row.state);
    row.annotationType = this.text(row.annotationType);
    row.createdByConditionId = this.text(row.createdByConditionId);
    row.createdByRuleConditionVersionId = this.text(row.createdByRuleConditionVersionId);
    row.reportRuleVersionId = this.text(row.reportRuleVersionId);
    row.tags = this.part(row.tags);
    row.assetIds = this.part(row.assetIds);
    row.linkedChannels = this.part(row.linkedChannels);
    row.assignedToUser = row.assignedToUser && this.part(row.assignedToUser);
    for (let i = 0; i < row.metadata.length; i++) row.metadata[i] = this.part(row.metadata[i]);
    row.metadata = this.part(row.metadata);
    return row;
  }
}
