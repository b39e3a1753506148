// Saved searches in the sync fuzzer. A replica, offline, creates a search,
// renames one, changes its include-archived switch or its tag filter, or
// deletes one; the online colleague does the same directly on the remote.
// Identity: the search term, set to the fuzz id at creation and never edited
// (a create carries no marker: its unknown outcome is resolved by matching
// name and properties, so replayed creates are not injected, see world.ts).
// A search deleted by anyone is gone for everyone: an edit of it that a
// replica pushes after the deletion finds it missing, which must leave a
// `remote_missing` conflict the user sees (world.ts dismisses both once seen).
// The checker demands every replica hold exactly the remote's saved searches,
// each search created once and absent once deleted, and the field values of
// the others obey the "nothing lost" rule.
import type { Db } from '../../../src-main/db/database';
import { invoke } from '../../../src-main/services/invoke';
import { propertiesToWire, type StoredProperties } from '../../../src-main/services/savedSearches/savedSearchProperties';
import { savedSearchFields } from '../../../src-main/sync/resources/savedSearches/apply';
import type { TestServer } from '../../support/testServer';
import { callerOf, type Replica } from '../helpers';
import { byFuzzId, canonical, fieldConflicts, loserOf, REMOTE, remoteIdOf, type FuzzContext, type Write } from './model';

const TAGS = ['t1', 't2', 't3'];
const NAME = 'name';
const INCLUDE_ARCHIVED = 'properties.include_archived';
const TAG_ITEMS = 'properties.tag_items';
type Field = typeof NAME | typeof INCLUDE_ARCHIVED | typeof TAG_ITEMS;

/** A create, which a replay would make twice (nothing tells the copies apart): the world injects no duplicate there. */
export const savedSearchCreate = (r: { method: string; path: string }) =>
  r.method === 'POST' && /^\/api\/v1\/saved_searches(\?|$)/.test(r.path);

/** The modelled fields of a synced field set (as savedSearchFields and the conflict log give them), in one form. */
function modelled(fields: Record<string, unknown>): Record<Field, unknown> {
  return {
    [NAME]: fields[NAME],
    [INCLUDE_ARCHIVED]: fields[INCLUDE_ARCHIVED] === true,
    [TAG_ITEMS]: ((fields[TAG_ITEMS] ?? []) as { id: string }[]).map((t) => t.id).sort(),
  };
}

interface Held {
  readonly id: string;
  readonly fuzzId: string;
  readonly fields: Record<Field, unknown>;
}

export function savedSearchFuzz(ctx: FuzzContext, remote: TestServer) {
  const created = new Set<string>();
  const deleted = new Set<string>();
  const isFuzz = (term: unknown): term is string => typeof term === 'string' && term.startsWith(`s${ctx.seed}-`);
  const rows = (db: Db) =>
    db.all<{ id: string; name: string; properties: string }>('SELECT id, name, properties FROM saved_searches ORDER BY id');
  const held = (db: Db): Held[] =>
    rows(db)
      .map((r) => {
        const properties = propertiesToWire(JSON.parse(r.properties) as StoredProperties);
        return { id: r.id, fuzzId: properties.searchTerm as string, fields: modelled(savedSearchFields({ name: r.name, properties })) };
      })
      .filter((s) => isFuzz(s.fuzzId))
      .sort(byFuzzId);
  const onRemote = (op: Parameters<typeof invoke>[1], request: unknown) =>
    invoke({ engine: remote.engine, db: remote.engine.db, caller: callerOf(remote.engine.db, 'web@outpost.local') }, op, request);
  const tagItems = (tags: readonly string[]) => tags.map((t) => ({ id: t, name: t }));
  /** Remote ids of the searches some replica has open entries for. */
  const waitingIds = () =>
    new Set(
      ctx.replicas.flatMap((r) =>
        r.engine.db
          .all<{ record_id: string }>(
            "SELECT t.record_id FROM sync_outbox_targets t JOIN sync_outbox o ON o.seq = t.seq WHERE t.resource = 'saved_search' AND o.state IN ('pending', 'inflight')",
          )
          .map((t) => remoteIdOf(ctx.replicas, t.record_id)),
      ),
    );

  /** One action by `writer` through `call` (a replica's invoke, or the remote's as the colleague) on the searches of `db`. */
  async function act(writer: string, call: (op: Parameters<typeof invoke>[1], req: unknown) => Promise<any>, db: Db): Promise<string> {
    const mine = held(db);
    if (mine.length === 0 || ctx.rand() < 0.25) {
      const fuzzId = ctx.nextId('s');
      const name = `s${ctx.step()}-${writer}`;
      const includeArchived = ctx.rand() < 0.5;
      const tags = TAGS.filter(() => ctx.rand() < 0.4);
      await call('CreateSavedSearch', {
        name,
        properties: { overviewMode: 'OVERVIEW_MODE_ANNOTATIONS', searchTerm: fuzzId, includeArchived, tagItems: tagItems(tags) },
      });
      created.add(fuzzId);
      ctx.record(writer, fuzzId, NAME, name);
      ctx.record(writer, fuzzId, INCLUDE_ARCHIVED, includeArchived);
      ctx.record(writer, fuzzId, TAG_ITEMS, [...tags].sort());
      return `create search ${fuzzId}`;
    }
    // The colleague goes for searches a replica has edits of waiting, and deletes more often: a replica's offline
    // edit of a search deleted meanwhile is the case to meet.
    const waiting = writer === REMOTE ? mine.filter((x) => waitingIds().has(x.id)) : [];
    const s = ctx.pick(waiting.length && ctx.rand() < 0.6 ? waiting : mine);
    const kind = ctx.rand() * (writer === REMOTE ? 1.3 : 1);
    if (kind < 0.4) {
      const name = `s${ctx.step()}-${writer}`;
      await call('UpdateSavedSearch', { savedSearch: { savedSearchId: s.id, name }, updateMask: 'name' });
      ctx.record(writer, s.fuzzId, NAME, name, s.fields[NAME]);
      return `rename search ${s.fuzzId}`;
    }
    if (kind < 0.6) {
      const includeArchived = !s.fields[INCLUDE_ARCHIVED];
      await call('UpdateSavedSearch', {
        savedSearch: { savedSearchId: s.id, properties: { includeArchived } },
        updateMask: INCLUDE_ARCHIVED,
      });
      ctx.record(writer, s.fuzzId, INCLUDE_ARCHIVED, includeArchived, s.fields[INCLUDE_ARCHIVED]);
      return `search ${s.fuzzId} include archived ${includeArchived}`;
    }
    if (kind < 0.85) {
      const tags = TAGS.filter(() => ctx.rand() < 0.5);
      await call('UpdateSavedSearch', {
        savedSearch: { savedSearchId: s.id, properties: { tagItems: tagItems(tags) } },
        updateMask: TAG_ITEMS,
      });
      ctx.record(writer, s.fuzzId, TAG_ITEMS, [...tags].sort(), s.fields[TAG_ITEMS]);
      return `search ${s.fuzzId} tags ${tags.join(',') || '-'}`;
    }
    await call('DeleteSavedSearch', { savedSearchId: s.id });
    deleted.add(s.fuzzId);
    return `delete search ${s.fuzzId}`;
  }

  return {
    created,
    deleted,
    edit: (r: Replica) => act(r.name, (op, req) => r.call(op, req), r.engine.db),
    remoteEdit: () => act(REMOTE, onRemote, remote.engine.db).then((s) => `web ${s}`),

    /** Convergence and exactly once; returns the remote's final value of each write and the logged losers. */
    check(fail: (why: string) => never) {
      const view = (db: Db) => rows(db).map((r) => ({ ...r, properties: JSON.parse(r.properties) as unknown }));
      const remoteRows = canonical(view(remote.engine.db));
      for (const r of ctx.replicas) {
        if (canonical(view(r.engine.db)) !== remoteRows) {
          fail(
            `${r.name} diverges from the remote on saved searches: ${JSON.stringify({ local: held(r.engine.db), remote: held(remote.engine.db) })}`,
          );
        }
      }
      const byFuzz = new Map<string, Held[]>();
      for (const s of held(remote.engine.db)) byFuzz.set(s.fuzzId, [...(byFuzz.get(s.fuzzId) ?? []), s]);
      for (const f of created) {
        const n = byFuzz.get(f)?.length ?? 0;
        const want = deleted.has(f) ? 0 : 1;
        if (n !== want) {
          // What the soak needs to tell a lost lookup from a replayed create: the copies, and every replica's creates.
          const copies = (byFuzz.get(f) ?? []).map((c) =>
            remote.engine.db.get('SELECT id, name, created_by_user_id, created_date, modified_date FROM saved_searches WHERE id = ?', [
              c.id,
            ]),
          );
          const creates = ctx.replicas.map((r) => ({
            replica: r.name,
            entries: r.engine.db.all(
              `SELECT seq, state, attempts, first_sent_server_time, result, last_error, created_ids FROM sync_outbox
                WHERE operation = 'CreateSavedSearch' ORDER BY seq`,
            ),
          }));
          fail(
            `saved search ${f} exists ${n} times on the remote${deleted.has(f) ? ', though deleted' : ''}: ${JSON.stringify({ copies, creates })}`,
          );
        }
      }
      if (byFuzz.size !== created.size - deleted.size)
        fail(`the remote has ${byFuzz.size} fuzz saved searches; ${created.size} created, ${deleted.size} deleted`);
      const fuzzOf = new Map(held(remote.engine.db).map((s) => [s.id, s.fuzzId]));
      const losers = new Set<string>();
      let conflicts = 0;
      for (const r of ctx.replicas) {
        for (const c of fieldConflicts(r, 'saved_search')) {
          conflicts++;
          const fuzzId = fuzzOf.get(remoteIdOf(ctx.replicas, c.record_id));
          if (!fuzzId || !(c.field === NAME || c.field === INCLUDE_ARCHIVED || c.field === TAG_ITEMS)) continue;
          losers.add(`${fuzzId}\u0000${c.field}\u0000${canonical(modelled({ [c.field]: loserOf(c) })[c.field])}`);
        }
      }
      const final = (w: Write) => canonical(byFuzz.get(w.fuzzId)![0].fields[w.field as Field]);
      return { final, losers, conflicts };
    },
  };
}
