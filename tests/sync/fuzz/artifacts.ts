// Artifacts in the sync fuzzer. A replica, offline, uploads an artifact (a few
// KB of seeded bytes, sometimes linked at upload to one of its annotations,
// offline-created ones included), adds a version, links or unlinks one of its
// annotations, archives or unarchives; the online colleague does the same
// directly on the remote. Identity: the title is the fuzz id; a version is its
// content's SHA-256 (the bytes are random, so unique).
// The checker demands every replica hold exactly the remote's artifacts
// (ids, archive state, links, versions, content hashes of the stored files),
// each artifact and each version exist once on the remote with the bytes its
// writer uploaded, and archive state and links obey the "nothing lost" rule
// (a link is a field valued present/absent: a conflict over which version it
// points at loses nothing the fuzzer writes).
import { invoke } from '../../../src-main/services/invoke';
import type { TestServer } from '../../support/testServer';
import { artifactView, sha256, stageUpload, type ArtifactView } from '../artifactKit';
import { callerOf, type Replica } from '../helpers';
import { canonical, fieldConflicts, loserOf, REMOTE, remoteIdOf, seededBytes, type FuzzContext, type Write } from './model';

const RELATIONS = ['ATTACHED_TO', 'REFERENCES'] as const;
const ANNOTATION = 'ARTIFACT_ENTITY_TYPE_ANNOTATION';
const ANNOTATION_TYPE = 1; // ArtifactEntityType number of ANNOTATION in the store
const RELATION_NUMBER: Record<(typeof RELATIONS)[number], number> = { ATTACHED_TO: 1, REFERENCES: 3 };
const RELATION_NAME = Object.fromEntries(Object.entries(RELATION_NUMBER).map(([k, v]) => [v, k])) as Record<number, string>;

/** The field a link is modelled by: relation and the annotation's fuzz id (ids differ across stores until mapped). */
const linkField = (relation: string, annotationFuzzId: string) => `link:${relation}:${annotationFuzzId}`;
const isArtifactTitle = (title: string) => /^a\d+-\d+$/.test(title);

/**
 * POSTs whose replay makes a second record nothing cleans up: a version (no marker to tell the copies apart), a
 * structured artifact (not driven here). The world injects no duplicate there; a replayed upload is fair game.
 */
export const artifactCreate = (r: { method: string; path: string }) =>
  r.method === 'POST' && (/^\/api\/v1\/artifacts(\?|$)/.test(r.path) || /^\/api\/v1\/artifacts\/[^/:]+\/versions/.test(r.path));

export function artifactFuzz(ctx: FuzzContext, remote: TestServer) {
  /** Fuzz id (title) -> SHA-256 of every version its writers uploaded, in upload order. */
  const versions = new Map<string, string[]>();
  /** Fuzz id -> its writer and the id the upload returned there (a replica's local id until the push maps it). */
  const origin = new Map<string, { writer: string; id: string }>();
  /** The remote id of an upload's own copy, once known (a replayed upload leaves another copy with the same title). */
  const primaryId = (title: string) => {
    const o = origin.get(title)!;
    const writer = ctx.replicas.find((r) => r.name === o.writer);
    return writer
      ? (writer.engine.db.get<{ remote_id: string | null }>('SELECT remote_id FROM sync_id_map WHERE local_id = ?', [o.id])?.remote_id ??
          o.id)
      : o.id;
  };
  const loggedDuplicates = () =>
    new Set(
      ctx.replicas.flatMap((r) =>
        r.engine.db
          .all<{ record_id: string }>("SELECT record_id FROM sync_conflicts WHERE kind = 'duplicate' AND resource = 'artifact'")
          .map((c) => c.record_id),
      ),
    );
  const webCaller = () => callerOf(remote.engine.db, 'web@outpost.local');
  const onRemote = (op: Parameters<typeof invoke>[1], request: unknown) =>
    invoke({ engine: remote.engine, db: remote.engine.db, caller: webCaller() }, op, request);
  const content = () => seededBytes(ctx.rand, 512 + Math.floor(ctx.rand() * 4096));

  /** The fuzz artifacts a store holds, with their links to fuzz annotations. */
  const held = (view: ArtifactView[], annotations: { id: string; fuzzId: string }[]) => {
    const fuzzOf = new Map(annotations.map((a) => [a.id, a.fuzzId]));
    const copies = new Map<string, number>();
    for (const a of view) copies.set(a.title, (copies.get(a.title) ?? 0) + 1);
    return view
      .filter((a) => isArtifactTitle(a.title) && (copies.get(a.title) === 1 || a.id === primaryId(a.title)))
      .map((a) => ({
        ...a,
        linked: new Set(
          a.links
            .filter((l) => l.entityType === ANNOTATION_TYPE && fuzzOf.has(l.entityId))
            .map((l) => linkField(RELATION_NAME[l.relation], fuzzOf.get(l.entityId)!)),
        ),
        linkTargets: a.links
          .filter((l) => l.entityType === ANNOTATION_TYPE && fuzzOf.has(l.entityId))
          .map((l) => ({ relation: RELATION_NAME[l.relation], entityId: l.entityId, fuzzId: fuzzOf.get(l.entityId)! })),
      }));
  };

  /** One action on an artifact by `writer`, through `call` (a replica's invoke, or the remote's as the colleague). */
  async function act(
    writer: string,
    call: (op: Parameters<typeof invoke>[1], req: unknown) => Promise<any>,
    dataDir: string,
    view: ArtifactView[],
    annotations: { id: string; fuzzId: string }[],
  ) {
    const mine = held(view, annotations);
    const roll = ctx.rand();
    if (mine.length === 0 || roll < 0.25) {
      const title = ctx.nextId('a');
      const bytes = content();
      const link =
        annotations.length > 0 && ctx.rand() < 0.4 ? { relation: ctx.pick(RELATIONS), target: ctx.pick(annotations) } : undefined;
      const { artifact } = await call('UploadArtifact', {
        file: stageUpload(dataDir, bytes, `${title}.bin`),
        title,
        ...(link
          ? {
              links: JSON.stringify([
                { relation: `ARTIFACT_LINK_RELATION_${link.relation}`, entityType: ANNOTATION, entityId: link.target.id },
              ]),
            }
          : {}),
      });
      versions.set(title, [sha256(bytes)]);
      origin.set(title, { writer, id: artifact.artifactId });
      ctx.record(writer, title, 'is_archived', false);
      if (link) ctx.record(writer, title, linkField(link.relation, link.target.fuzzId), true);
      return `upload ${title}${link ? ` linked to ${link.target.fuzzId}` : ''}`;
    }
    const a = ctx.pick(mine);
    const kind = ctx.rand();
    if (kind < 0.3) {
      const bytes = content();
      await call('CreateArtifactVersion', { artifactId: a.id, file: stageUpload(dataDir, bytes, `${a.title}-v.bin`) });
      versions.get(a.title)!.push(sha256(bytes));
      return `new version of ${a.title}`;
    }
    if (kind < 0.6 && annotations.length > 0) {
      const relation = ctx.pick(RELATIONS);
      const target = ctx.pick(annotations);
      const field = linkField(relation, target.fuzzId);
      await call('LinkArtifact', {
        artifactId: a.id,
        relation: `ARTIFACT_LINK_RELATION_${relation}`,
        entityType: ANNOTATION,
        entityId: target.id,
      });
      ctx.record(writer, a.title, field, true, a.linked.has(field));
      return `link ${a.title} ${relation} ${target.fuzzId}`;
    }
    if (kind < 0.75 && a.linkTargets.length > 0) {
      const l = ctx.pick(a.linkTargets);
      await call('UnlinkArtifact', {
        artifactId: a.id,
        relation: `ARTIFACT_LINK_RELATION_${l.relation}`,
        entityType: ANNOTATION,
        entityId: l.entityId,
      });
      ctx.record(writer, a.title, linkField(l.relation, l.fuzzId), false, true);
      return `unlink ${a.title} ${l.relation} ${l.fuzzId}`;
    }
    const archive = !a.archived || ctx.rand() < 0.2;
    await call(archive ? 'ArchiveArtifact' : 'UnarchiveArtifact', { artifactId: a.id });
    ctx.record(writer, a.title, 'is_archived', archive, a.archived);
    return `${archive ? 'archive' : 'unarchive'} ${a.title}`;
  }

  return {
    versions,
    /** Replayed uploads the sync cleaned up (extra copies archived and logged). */
    duplicates: () => loggedDuplicates().size,
    /** An offline action on a replica. */
    edit: (r: Replica) => act(r.name, (op, req) => r.call(op, req), r.dir, artifactView(r.engine), ctx.knownAnnotations(r)),
    /** The online colleague, directly on the remote. */
    remoteEdit: (annotations: { id: string; fuzzId: string }[]) =>
      act(REMOTE, onRemote, remote.dataDir, artifactView(remote.engine), annotations).then((s) => `web ${s}`),

    /** Convergence, exactly once and content checks; returns the remote's final value of each artifact write and the logged losers. */
    check(fail: (why: string) => never, remoteAnnotations: { id: string; fuzzId: string }[]) {
      // By id: a duplicate's two copies share the title that artifactView orders by.
      const view = (e: TestServer['engine']) => artifactView(e).sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
      const remoteView = view(remote.engine);
      const text = canonical(remoteView);
      for (const r of ctx.replicas) {
        const v = view(r.engine);
        if (canonical(v) === text) continue;
        const ids = [...new Set([...v, ...remoteView].map((a) => a.id))];
        const diff = ids
          .map((id) => [id, v.find((a) => a.id === id), remoteView.find((a) => a.id === id)] as const)
          .filter(([, x, y]) => canonical(x) !== canonical(y))
          .slice(0, 3);
        fail(
          `${r.name} diverges from the remote on artifacts: ${JSON.stringify(diff.map(([id, x, y]) => ({ id, local: x ?? 'missing', remote: y ?? 'missing' })))}`,
        );
      }
      // Exactly once, with the writer's bytes (every store converged above, so the remote's content hashes are everyone's).
      // A replayed upload's extra copy must have been archived and logged as a duplicate by its writer.
      const duplicates = loggedDuplicates();
      const byTitle = new Map<string, ArtifactView[]>();
      for (const a of remoteView) byTitle.set(a.title, [...(byTitle.get(a.title) ?? []), a]);
      for (const [title, shas] of versions) {
        const all = byTitle.get(title) ?? [];
        const copies = all.filter((a) => !duplicates.has(a.id));
        if (copies.length !== 1)
          fail(
            `artifact ${title} exists ${copies.length} times on the remote (${all.length - copies.length} more logged as duplicates): ${JSON.stringify(all.map((a) => [a.id, a.archived]))}`,
          );
        const [a] = copies;
        if (a.id !== primaryId(title))
          fail(`artifact ${title}: the remote copy kept is ${a.id}, its writer's id map names ${primaryId(title)}`);
        for (const d of all.filter((x) => duplicates.has(x.id))) {
          if (!d.archived || d.versions.length !== 1 || d.versions[0].sha256 !== shas[0])
            fail(`artifact ${title}: the duplicate copy ${d.id} is not an archived copy of the upload: ${JSON.stringify(d)}`);
        }
        const got = a.versions.map((v) => v.sha256).sort();
        if (canonical(got) !== canonical([...shas].sort())) {
          fail(
            `artifact ${title} has versions ${JSON.stringify(got)} on the remote; uploaded ${JSON.stringify(shas)}\n` +
              `  remote versions: ${JSON.stringify(remote.engine.db.all('SELECT v.id, v.version, v.sha256, v.created_date, v.created_by_user_id FROM artifact_versions v JOIN artifacts a ON a.pk = v.artifact_pk WHERE a.id = ? ORDER BY v.version', [a.id]))}\n  ` +
              ctx.replicas
                .map(
                  (r) =>
                    `${r.name}: ${JSON.stringify(r.engine.db.all("SELECT seq, state, attempts, local_time, first_sent_server_time, error_code, last_error, result, created_ids FROM sync_outbox WHERE operation = 'CreateArtifactVersion'"))}`,
                )
                .join('\n  '),
          );
        }
        for (const v of a.versions)
          if (v.contentSha !== v.sha256)
            fail(`artifact ${title} version ${v.version}: stored content hashes to ${v.contentSha}, expected ${v.sha256}`);
        if (a.version !== a.versions.length || a.currentVersionId !== a.versions[a.versions.length - 1].id)
          fail(`artifact ${title}: current version ${a.version} of ${a.versions.length}`);
      }
      if (remoteView.length !== versions.size + duplicates.size)
        fail(`the remote has ${remoteView.length} artifacts, ${versions.size} were uploaded (${duplicates.size} duplicates logged)`);

      const finals = new Map(
        held(
          remoteView.filter((a) => !duplicates.has(a.id)),
          remoteAnnotations,
        ).map((a) => [a.title, a]),
      );
      const final = (w: Write) => {
        const a = finals.get(w.fuzzId)!;
        return canonical(w.field === 'is_archived' ? a.archived : a.linked.has(w.field));
      };
      // Conflict logs name the remote's ids (or a replica's offline id not yet rewritten): back to fuzz ids.
      const annotationFuzz = new Map(remoteAnnotations.map((a) => [a.id, a.fuzzId]));
      const titleOf = new Map(remoteView.map((a) => [a.id, a.title]));
      const losers = new Set<string>();
      let conflicts = 0;
      for (const r of ctx.replicas) {
        for (const c of fieldConflicts(r, 'artifact')) {
          conflicts++;
          const title = titleOf.get(remoteIdOf(ctx.replicas, c.record_id));
          let field = c.field;
          const m = /^link:([A-Z_]+):ANNOTATION:(.+)$/.exec(c.field);
          if (m) field = linkField(m[1], annotationFuzz.get(remoteIdOf(ctx.replicas, m[2])) ?? m[2]);
          const loser = loserOf(c);
          losers.add(`${title}\u0000${field}\u0000${canonical(field.startsWith('link:') ? loser !== null : loser)}`);
        }
      }
      return { final, losers, conflicts };
    },
  };
}
