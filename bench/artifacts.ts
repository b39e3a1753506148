// ListArtifacts at scale: 100k artifacts with links (one conversation link
// each, plus annotation/run links), generated with prepared statements into a
// fresh data directory. Prints the time of one page of 50 through the service
// (default order, and scoped to one conversation) against hand-written SQL for
// the same conversation-scoped page, and the ratio; and the same for pages
// filtered with the CEL filter `links.exists(l, l.entity_type == ANNOTATION &&
// l.entity_id == '...')` (a few links each) and `links.exists(l, l.relation ==
// REFERENCES && l.entity_type == RUN)` (a fifth of all artifacts).
//
// Run: node bin/run-ts.mjs bench/artifacts.ts [artifactCount]
// (OUTPOST_BENCH_ANALYZE=1 runs ANALYZE first, to compare plans with statistics.)
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureMember, loadCaller, DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME } from '../src-main/auth/identity';
import type { Db } from '../src-main/db/database';
import { openEngine, type RequestContext } from '../src-main/engine';
import { listArtifacts } from '../src-main/services/artifacts/artifactsService';

const CONVERSATIONS = 1000;
const ANNOTATIONS = 5000;
const PAGE = 50;
const FILE_TYPES = ['csv', 'pdf', 'image', 'json', 'parquet', 'txt', 'file'];

function generate(db: Db, organizationId: string, userId: string, count: number): { links: number } {
  const raw = db.raw;
  const artifact = raw.prepare(
    `INSERT INTO artifacts(pk, id, organization_id, created_by_user_id, modified_by_user_id, title, storage_class, created_via, created_date, modified_date,
       archived_date, artifact_version_id, version, version_created_date, file_name, file_type, mime_type, size_bytes, sha256)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const version = raw.prepare(
    `INSERT INTO artifact_versions(id, artifact_pk, version, file_name, file_type, mime_type, size_bytes, sha256, storage_path, created_date, created_by_user_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const link = raw.prepare(
    'INSERT INTO artifact_links(artifact_pk, relation, entity_type, entity_id, artifact_version_id, position) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const meta = raw.prepare(
    'INSERT INTO artifact_metadata(artifact_pk, key, type, string_value, number_value, boolean_value, position) VALUES (?, ?, 1, ?, NULL, NULL, 0)',
  );
  let links = 0;
  const base = Date.UTC(2026, 0, 1) * 1000;
  raw.transaction(() => {
    for (let i = 1; i <= count; i++) {
      const id = randomUUID();
      const versionId = randomUUID();
      // created_date is not the insertion order everywhere (ties and shuffles), so keyset order matters
      const created = base + (i - (i % 7)) * 1_000_000 + (i % 3);
      const fileType = FILE_TYPES[i % FILE_TYPES.length];
      const archived = i % 10 === 0 ? created + 5_000_000 : null;
      artifact.run(
        i,
        id,
        organizationId,
        userId,
        userId,
        `Artifact ${i}`,
        fileType === 'json' ? 2 : 1,
        1 + (i % 3),
        created,
        created,
        archived,
        versionId,
        1,
        created,
        `file-${i}.${fileType}`,
        fileType,
        'application/octet-stream',
        1000 + i,
        'ab'.repeat(32),
      );
      version.run(
        versionId,
        i,
        1,
        `file-${i}.${fileType}`,
        fileType,
        'application/octet-stream',
        1000 + i,
        'ab'.repeat(32),
        `${id}/${versionId}`,
        created,
        userId,
      );
      let position = 0;
      link.run(i, 1, 5, `conv-${i % CONVERSATIONS}`, versionId, position++);
      links++;
      if (i % 2 === 0) {
        link.run(i, 1, 1, `ann-${(i * 7919) % ANNOTATIONS}`, versionId, position++);
        links++;
      }
      if (i % 5 === 0) {
        link.run(i, 3, 2, `run-${i % 100}`, versionId, position++);
        links++;
      }
      // one conversation holds only the newest artifacts (the usual shape: made together, recently)
      if (i > count - 120) {
        link.run(i, 2, 5, 'conv-recent', versionId, position++);
        links++;
      }
      meta.run(i, 'source', i % 2 ? 'bench' : 'field');
    }
  })();
  // No ANALYZE: profile databases never run it, so plans must be good without statistics.
  if (process.env.OUTPOST_BENCH_ANALYZE) raw.exec('ANALYZE');
  return { links };
}

/** Median wall time of fn in milliseconds (after warm-up). */
function time(iterations: number, fn: (i: number) => unknown): number {
  for (let i = 0; i < 20; i++) fn(i);
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = process.hrtime.bigint();
    fn(i);
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

const HAND_WRITTEN_PAGE = `
SELECT a.* FROM artifact_links l JOIN artifacts a ON a.pk = l.artifact_pk
WHERE l.entity_type = 5 AND l.entity_id = ? AND a.organization_id = ? AND a.archived_date IS NULL
ORDER BY a.created_date, a.pk LIMIT ${PAGE}`;

/**
 * The annotation-link page as one would write it by hand: few links match, so
 * drive from artifact_links_entity and sort that handful (like HAND_WRITTEN_PAGE).
 */
const HAND_WRITTEN_ANNOTATION_PAGE = `
SELECT a.* FROM artifact_links l JOIN artifacts a ON a.pk = l.artifact_pk
WHERE l.entity_type = 1 AND l.entity_id = ? AND a.organization_id = ? AND a.archived_date IS NULL
ORDER BY a.created_date, a.pk LIMIT ${PAGE}`;

/** Many matches: walking created_date order and probing each artifact's links is the fast plan. */
const HAND_WRITTEN_RUN_REFERENCES_PAGE = `
SELECT a.* FROM artifacts a
WHERE a.organization_id = ? AND a.archived_date IS NULL
  AND EXISTS (SELECT 1 FROM artifact_links l WHERE l.artifact_pk = a.pk AND l.relation = 3 AND l.entity_type = 2)
ORDER BY a.created_date, a.pk LIMIT ${PAGE}`;

const annotationFilter = (annotationId: string) => `links.exists(l, l.entity_type == ANNOTATION && l.entity_id == '${annotationId}')`;
const RUN_REFERENCES_FILTER = 'links.exists(l, l.relation == REFERENCES && l.entity_type == RUN)';

export async function main(args: string[] = []): Promise<void> {
  const count = Number(args[0] ?? 100_000);
  const dir = mkdtempSync(join(tmpdir(), 'outpost-bench-artifacts-'));
  const engine = openEngine(dir);
  try {
    const db = engine.db;
    const { userId, organizationId } = ensureMember(db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME);
    const ctx: RequestContext = { engine, db, caller: loadCaller(db, userId)! };
    const t0 = Date.now();
    const { links } = generate(db, organizationId, userId, count);
    console.log(
      `artifacts bench: ${count} artifacts, ${links} links, ${CONVERSATIONS} conversations (generated in ${((Date.now() - t0) / 1000).toFixed(1)} s)`,
    );

    const conv = (i: number) => `conv-${(i * 37) % CONVERSATIONS}`;
    /** What the service does after the page query: load the page's links and metadata. */
    const withChildren = (rows: readonly { pk: number }[]) => {
      const pks = JSON.stringify(rows.map((r) => r.pk));
      db.all('SELECT * FROM artifact_links WHERE artifact_pk IN (SELECT value FROM json_each(?)) ORDER BY artifact_pk, position', [pks]);
      db.all('SELECT * FROM artifact_metadata WHERE artifact_pk IN (SELECT value FROM json_each(?)) ORDER BY artifact_pk, position', [pks]);
    };
    // sanity: the service and the hand-written SQL return the same page
    const ours = listArtifacts(ctx, { conversationId: conv(1) }).artifacts.map((a) => a.artifactId);
    const hand = db.all<{ id: string }>(HAND_WRITTEN_PAGE, [conv(1), organizationId]).map((r) => r.id);
    if (ours.join() !== hand.join()) throw new Error('the service and the hand-written SQL disagree on the conversation page');

    // The annotation linked from artifact 2(i + 1) (only even artifacts have annotation links).
    const ann = (i: number) => `ann-${(2 * (i + 1) * 7919) % ANNOTATIONS}`;
    const ourAnnotation = listArtifacts(ctx, { filter: annotationFilter(ann(1)) }).artifacts.map((a) => a.artifactId);
    const handAnnotation = db.all<{ id: string }>(HAND_WRITTEN_ANNOTATION_PAGE, [ann(1), organizationId]).map((r) => r.id);
    if (ourAnnotation.length === 0 || ourAnnotation.join() !== handAnnotation.join())
      throw new Error('the service and the hand-written SQL disagree on the annotation-link page');
    const ourReferences = listArtifacts(ctx, { filter: RUN_REFERENCES_FILTER }).artifacts.map((a) => a.artifactId);
    const handReferences = db.all<{ id: string }>(HAND_WRITTEN_RUN_REFERENCES_PAGE, [organizationId]).map((r) => r.id);
    if (ourReferences.length !== PAGE || ourReferences.join() !== handReferences.join())
      throw new Error('the service and the hand-written SQL disagree on the run-references page');

    const iterations = 300;
    const defaultPage = time(iterations, () => listArtifacts(ctx, {}));
    const secondPageToken = listArtifacts(ctx, { orderBy: 'title desc' }).nextPageToken;
    const titlePage = time(iterations, () => listArtifacts(ctx, { orderBy: 'title desc', pageToken: secondPageToken }));
    const ourConversation = time(iterations, (i) => listArtifacts(ctx, { conversationId: conv(i) }));
    const recent = time(iterations, () => listArtifacts(ctx, { conversationId: 'conv-recent' }));
    const recentHand = time(iterations, () => db.all(HAND_WRITTEN_PAGE, ['conv-recent', organizationId]));
    const handRows = time(iterations, (i) => db.all(HAND_WRITTEN_PAGE, [conv(i), organizationId]));
    // The service also builds wire objects with links and metadata: give the hand-written version the same child loads.
    const handFull = time(iterations, (i) => withChildren(db.all<{ pk: number }>(HAND_WRITTEN_PAGE, [conv(i), organizationId])));

    const fmt = (ms: number) => `${ms.toFixed(3).padStart(8)} ms`;
    console.log(`page of ${PAGE}, default order (created_date asc, archived excluded)  ${fmt(defaultPage)}`);
    console.log(`page 2 of ${PAGE}, order_by "title desc"                                ${fmt(titlePage)}`);
    console.log(`page of ${PAGE} scoped to one conversation (ListArtifacts)             ${fmt(ourConversation)}`);
    console.log(
      `  same page, hand-written SQL (rows only)                             ${fmt(handRows)}   ratio ours/hand ${(ourConversation / handRows).toFixed(2)}x`,
    );
    console.log(
      `  same page, hand-written SQL + links + metadata                      ${fmt(handFull)}   ratio ours/hand ${(ourConversation / handFull).toFixed(2)}x`,
    );
    console.log(`page of ${PAGE} of a conversation of only recent artifacts (ListArtifacts)  ${fmt(recent)}`);
    console.log(
      `  same page, hand-written SQL (rows only)                             ${fmt(recentHand)}   ratio ours/hand ${(recent / recentHand).toFixed(2)}x`,
    );
    // A different annotation per iteration: a new filter text each time, so this includes parsing, checking and compiling it.
    const annotationPage = time(iterations, (i) => listArtifacts(ctx, { filter: annotationFilter(ann(i)) }));
    const annotationPageCached = time(iterations, () => listArtifacts(ctx, { filter: annotationFilter(ann(1)) }));
    const annotationHand = time(iterations, (i) => db.all(HAND_WRITTEN_ANNOTATION_PAGE, [ann(i), organizationId]));
    const annotationHandFull = time(iterations, (i) =>
      withChildren(db.all<{ pk: number }>(HAND_WRITTEN_ANNOTATION_PAGE, [ann(i), organizationId])),
    );
    const referencesPage = time(iterations, () => listArtifacts(ctx, { filter: RUN_REFERENCES_FILTER }));
    const referencesHand = time(iterations, () => db.all(HAND_WRITTEN_RUN_REFERENCES_PAGE, [organizationId]));
    const referencesHandFull = time(iterations, () =>
      withChildren(db.all<{ pk: number }>(HAND_WRITTEN_RUN_REFERENCES_PAGE, [organizationId])),
    );
    console.log(`page of ${PAGE} filtered by links.exists(l, l.entity_type == ANNOTATION && l.entity_id == ...)`);
    console.log(
      `  ListArtifacts, a new filter text each time (parse + check + compile) ${fmt(annotationPage)}   ratio ours/hand ${(annotationPage / annotationHand).toFixed(2)}x`,
    );
    console.log(
      `  ListArtifacts, the same filter text (compiled filter cached)        ${fmt(annotationPageCached)}   ratio ours/hand ${(annotationPageCached / annotationHand).toFixed(2)}x`,
    );
    console.log(`  same page, hand-written SQL (rows only)                             ${fmt(annotationHand)}`);
    console.log(
      `  same page, hand-written SQL + links + metadata                      ${fmt(annotationHandFull)}   ratio ours(cached)/hand ${(annotationPageCached / annotationHandFull).toFixed(2)}x`,
    );
    console.log(`page of ${PAGE} filtered by ${RUN_REFERENCES_FILTER}`);
    console.log(
      `  ListArtifacts                                                       ${fmt(referencesPage)}   ratio ours/hand ${(referencesPage / referencesHand).toFixed(2)}x`,
    );
    console.log(`  same page, hand-written SQL (rows only)                             ${fmt(referencesHand)}`);
    console.log(
      `  same page, hand-written SQL + links + metadata                      ${fmt(referencesHandFull)}   ratio ours/hand ${(referencesPage / referencesHandFull).toFixed(2)}x`,
    );
  } finally {
    engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
