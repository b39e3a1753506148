// Which source files write a table's rows (INSERT, UPDATE, DELETE in SQL text):
// a table with a store is written by that store alone, by services and sync alike.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Each table that has its store, and the store's file. */
export const STORES: Readonly<Record<string, string>> = {
  annotations: 'src-main/services/annotations/annotationStore.ts',
  annotation_tags: 'src-main/services/annotations/annotationStore.ts',
  annotation_assets: 'src-main/services/annotations/annotationStore.ts',
  annotation_linked_channels: 'src-main/services/annotations/annotationStore.ts',
  annotation_metadata: 'src-main/services/annotations/annotationStore.ts',
  annotation_logs: 'src-main/services/annotations/annotationLogStore.ts',
  saved_searches: 'src-main/services/savedSearches/savedSearchStore.ts',
  remote_files: 'src-main/services/remoteFiles/remoteFileStore.ts',
  remote_file_metadata: 'src-main/services/remoteFiles/remoteFileStore.ts',
  ...Object.fromEntries(
    [
      'tags',
      'assets',
      'asset_tags',
      'asset_metadata',
      'runs',
      'run_assets',
      'run_tags',
      'run_metadata',
      'channels',
      'channel_metadata',
      'units',
    ].map((t) => [t, 'src-main/services/reference/referenceStores.ts']),
  ),
  ...Object.fromEntries(
    [
      'rules',
      'rule_conditions',
      'rule_actions',
      'rule_versions',
      'rule_contextual_channels',
      'rule_asset_ids',
      'rule_tag_ids',
      'rule_metadata',
    ].map((t) => [t, 'src-main/services/rules/ruleStore.ts']),
  ),
  ...Object.fromEntries(
    [
      'test_reports',
      'test_report_metadata',
      'test_steps',
      'test_step_metadata',
      'test_measurements',
      'test_measurement_metadata',
      'test_measurement_channel_names',
      'test_report_imports',
    ].map((t) => [t, 'src-main/services/testReports/testReportStore.ts']),
  ),
  ...Object.fromEntries(['users', 'organizations', 'memberships'].map((t) => [t, 'src-main/auth/identityStore.ts'])),
  api_keys: 'src-main/auth/apiKeys.ts',
  policies: 'src-main/auth/policyStore.ts',
  policy_versions: 'src-main/auth/policyStore.ts',
  ...Object.fromEntries(
    ['artifacts', 'artifact_versions', 'artifact_metadata', 'artifact_links'].map((t) => [
      t,
      'src-main/services/artifacts/artifactStore.ts',
    ]),
  ),
};

/** Where SQL writes a table: INSERT INTO, UPDATE (OR ...), DELETE FROM, a `main.` schema prefix read through. */
const WRITE = String.raw`\b(?:INTO|UPDATE(?:\s+OR\s+[A-Z]+)?|DELETE\s+FROM)\s+(?:main\.)?`;

const STORE_FILES = new Set(Object.values(STORES));

/**
 * The tables a piece of source text writes: with SQL, through the child-row helpers of db/childRows.ts, which take the
 * table's name, or as the store that makes a table's `recordTable` (db/recordTable.ts: renames and deletes by id).
 */
export function tablesWrittenBy(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(new RegExp(`${WRITE}([a-z_]+)\\b`, 'g'))) out.add(m[1]);
  for (const m of text.matchAll(/\breplace(?:Metadata|List)\(\s*[\w.]+,\s*'([a-z_]+)'/g)) out.add(m[1]);
  for (const m of text.matchAll(/\brecordTable\(\s*'([a-z_]+)'/g)) out.add(m[1]);
  return out;
}

/** Whether the text writes a table whose name it takes at run time (`DELETE FROM ${table}`): only a store, or db/, may. */
export const writesTableNamedAtRunTime = (text: string): boolean => new RegExp(`${WRITE}\\$\\{`).test(text);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) && !/\.(test|spec)\.ts$/.test(name) ? [path] : [];
  });
}

/** `file writes table` for each table with a store that a file other than its store writes. */
export function writesOutsideStores(root: string, dirs: readonly string[]): string[] {
  const out: string[] = [];
  for (const file of dirs.flatMap((d) => sourceFiles(join(root, d)))) {
    const rel = relative(root, file);
    // (Migrations rewrite rows as the schema of their day had them: history, not a second writer.)
    if (rel.includes('/db/migrations/')) continue;
    const text = readFileSync(file, 'utf8');
    for (const table of tablesWrittenBy(text)) if (STORES[table] && STORES[table] !== rel) out.push(`${rel} writes ${table}`);
    // (db/ holds the helpers stores call with their tables' names.)
    if (writesTableNamedAtRunTime(text) && !rel.startsWith('src-main/db/') && !STORE_FILES.has(rel))
      out.push(`${rel} writes a table it names at run time`);
  }
  return out;
}
