// Tags (reference §11.3): CreateTag and ListTags. Assets, runs and annotations
// store tag names and create missing tags through ensureTags (resolve.ts).
import { randomUUID } from 'node:crypto';
import type { Tag } from '../../../src-shared/api/tags';
import { formatTimestamp, nowMicros } from '../../../src-shared/api/time';
import { ApiError } from '../../../src-shared/errors';
import { resolveOrganization } from '../../auth/caller';
import type { Db } from '../../db/database';
import type { RequestContext } from '../../engine';
import { listPage, type ListParams } from '../../filter/listQuery';
import { tagListSpec } from './listSpecs';
import { organizationScope } from './scope';
import { insertTag } from './referenceStores';

interface TagRow {
  seq: number;
  id: string;
  name: string;
  created_by_user_id: string;
  created_date: number;
}

const toWire = (r: TagRow): Tag => ({
  tagId: r.id,
  name: r.name,
  createdByUserId: r.created_by_user_id,
  createdDate: formatTimestamp(r.created_date),
});

/** Tags by `seq` (their keyset tie-break, migration 0006), in the order given. */
function loadTags(db: Db, seqs: readonly number[]): Tag[] {
  const rows = db.all<TagRow>(
    'SELECT seq, id, name, created_by_user_id, created_date FROM tags WHERE seq IN (SELECT value FROM json_each(?))',
    [JSON.stringify(seqs)],
  );
  const bySeq = new Map(rows.map((r) => [r.seq, r]));
  return seqs
    .map((s) => bySeq.get(s))
    .filter((r): r is TagRow => r !== undefined)
    .map(toWire);
}

export function createTag(ctx: RequestContext, req: { name: string; organizationId?: string }): { tag: Tag } {
  const { db, caller } = ctx;
  const organizationId = resolveOrganization(caller, req.organizationId);
  return db.tx(() => {
    if (db.get('SELECT 1 FROM tags WHERE organization_id = ? AND name = ?', [organizationId, req.name])) {
      throw ApiError.alreadyExists('tag', req.name, `a tag named '${req.name}' already exists`);
    }
    const id = randomUUID();
    insertTag(db, { id, organization_id: organizationId, name: req.name, created_by_user_id: caller.userId, created_date: nowMicros() });
    return { tag: toWire(db.get<TagRow>('SELECT seq, id, name, created_by_user_id, created_date FROM tags WHERE id = ?', [id])!) };
  });
}

/** ListTags. tag_type is validated by the request schema but selects nothing: tags are shared by every resource type. */
export function listTags(ctx: RequestContext, req: ListParams & { organizationId?: string }) {
  const scope = organizationScope(ctx.caller, req.organizationId);
  const page = listPage(ctx.db, tagListSpec, req, scope, ctx.engine.pageTokenSecret);
  return { tags: loadTags(ctx.db, page.keys), nextPageToken: page.nextPageToken };
}
