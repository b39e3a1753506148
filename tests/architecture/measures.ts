// The measures of issues #17 and #34, printed by `npm run measures` (and
// partly checked by measures.test.ts): what a newcomer adding a replicated
// resource feels. Lines of sync and per resource, the members a resource must
// and may implement, the files outside its folder that name a resource folder,
// import cycles between files and between folders, resources named in the
// generic sync core, and `any` in sync.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { folderGraph, importCycles, importGraph, ROOT, sourceFiles } from './importGraph';
import { resourceNamesInCore } from './resourceNames';
import { addThrowawayResource } from './addResource';

export interface AnyUse {
  readonly file: string;
  readonly line: number;
  /** A comment on the line, or the line above, says why (`any: ...`). */
  readonly explained: boolean;
}

/** Every `any` type in sync's code (tests excluded). */
export function anyInSync(): AnyUse[] {
  const out: AnyUse[] = [];
  for (const file of sourceFiles(['src-main/sync']).filter((f) => !f.endsWith('.test.ts'))) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const lines = text.split('\n');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const visit = (node: ts.Node) => {
      if (node.kind === ts.SyntaxKind.AnyKeyword) {
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line;
        const said = (l: string | undefined) => !!l && /\/\/.*\bany\b[^:]*:|\/\*.*\bany\b[^:]*:/.test(l);
        out.push({ file, line: line + 1, explained: said(lines[line]) || said(lines[line - 1]) });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

/**
 * The files outside a resource's folder that name a resource folder: what adding a replicated resource touches
 * besides its own folder (tests excluded).
 */
export function filesNamingResourceFolders(): string[] {
  const edges = importGraph(['src-shared', 'src-main', 'src-renderer/src']);
  const folderOf = (f: string) => /^src-main\/sync\/resources\/([^/]+)\//.exec(f)?.[1];
  const naming = edges.filter((e) => folderOf(e.to) && folderOf(e.from) === undefined && !e.from.endsWith('.test.ts')).map((e) => e.from);
  return [...new Set(naming)].sort();
}

const lines = (file: string) => readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1;
const codeFiles = (folder: string) => sourceFiles([folder]).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

/** Lines of TypeScript in sync (tests excluded): the core, its operations and each resource's folder. */
export function syncLines(): { total: number; core: number; operations: number; resources: Record<string, number> } {
  const all = codeFiles('src-main/sync');
  const sum = (files: string[]) => files.reduce((n, f) => n + lines(f), 0);
  const resources: Record<string, number> = {};
  for (const name of readdirSync(join(ROOT, 'src-main/sync/resources'), { withFileTypes: true })) {
    if (name.isDirectory()) resources[name.name] = sum(codeFiles(`src-main/sync/resources/${name.name}`));
  }
  return {
    total: sum(all),
    core: sum(all.filter((f) => !f.includes('/operations/') && !f.includes('/resources/'))),
    operations: sum(all.filter((f) => f.includes('/operations/'))),
    resources,
  };
}

/** The interfaces a replicated resource implements (its descriptor and what it hands the core). */
const EXTENSION_INTERFACES: Record<string, string> = {
  ReplicatedResource: 'src-main/sync/resource.ts',
  RecordKind: 'src-main/sync/resource.ts',
  RefetchReader: 'src-main/sync/resource.ts',
  SideEffectRecords: 'src-main/sync/resource.ts',
  PreLinkRecords: 'src-main/sync/resource.ts',
  OpSpec: 'src-main/sync/spec.ts',
  CreateForm: 'src-main/sync/spec.ts',
  RefusedCreate: 'src-main/sync/spec.ts',
  Transfer: 'src-main/sync/spec.ts',
  BatchForm: 'src-main/sync/spec.ts',
  Puller: 'src-main/sync/pull.ts',
  ChangedSince: 'src-main/sync/pull.ts',
  BulkLoad: 'src-main/sync/pull.ts',
  ListedWhole: 'src-main/sync/pull.ts',
  DeletionCheck: 'src-main/sync/pull.ts',
  Adopted: 'src-main/sync/resource.ts',
  KeptHere: 'src-main/sync/resource.ts',
  Merged: 'src-main/sync/resource.ts',
};

/** Members of each interface a resource implements: how many it must and how many it may. */
export function extensionMembers(): Record<string, { required: number; optional: number }> {
  const out: Record<string, { required: number; optional: number }> = {};
  for (const [name, file] of Object.entries(EXTENSION_INTERFACES)) {
    const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isInterfaceDeclaration(node) && node.name.text === name) {
        const members = node.members.filter((m) => ts.isPropertySignature(m) || ts.isMethodSignature(m));
        const optional = members.filter((m) => m.questionToken).length;
        out[name] = { required: members.length - optional, optional };
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

export interface FieldListCopy {
  readonly list: string;
  readonly copy: string;
  readonly shared: readonly string[];
}

/**
 * Lists of field names (string-array literals of snake_case names) written again elsewhere: a literal whose names
 * (at least five: fewer match by chance, `name, created_date, modified_date`), and most of them (four in five: a list
 * of filter fields that holds the updatable ones is another fact) all appear, in the same order, in another literal of src-main. A list derived from the one
 * declaration (a filter of it, a spread) is no literal and is not counted.
 */
export function fieldListCopies(): FieldListCopy[] {
  const lists: { where: string; names: string[] }[] = [];
  for (const file of sourceFiles(['src-main']).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const visit = (node: ts.Node) => {
      if (ts.isArrayLiteralExpression(node) && node.elements.length >= 5 && node.elements.every((e) => ts.isStringLiteral(e))) {
        const names = node.elements.map((e) => (e as ts.StringLiteral).text);
        if (names.every((n) => /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(n)))
          lists.push({ where: `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`, names });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  const inOrder = (part: string[], whole: string[]) => {
    let i = 0;
    for (const n of whole) if (n === part[i]) i++;
    return i === part.length;
  };
  const out: FieldListCopy[] = [];
  for (const a of lists)
    for (const b of lists)
      if (
        a !== b &&
        a.names.length >= 0.8 * b.names.length &&
        inOrder(a.names, b.names) &&
        (a.names.length < b.names.length || a.where > b.where)
      )
        out.push({ list: b.where, copy: a.where, shared: a.names });
  return out;
}

export function measures() {
  const edges = importGraph(['src-shared', 'src-main', 'src-renderer/src']);
  const anys = anyInSync();
  return {
    sync: syncLines(),
    members: extensionMembers(),
    folderCyclesInMain: importCycles(folderGraph(edges.filter((e) => e.from.startsWith('src-main/')))).length,
    resourcesNamedInSyncCore: resourceNamesInCore().length,
    importCycles: importCycles(edges).length,
    valueImportCycles: importCycles(edges, true).length,
    filesOutsideTheFolderToAddAResource: filesNamingResourceFolders(),
    anyInSync: anys.length,
    anyInSyncWithoutReason: anys.filter((a) => !a.explained).length,
    fieldListCopies: fieldListCopies(),
  };
}

export function main(): void {
  const m = measures();
  const perResource = Object.entries(m.sync.resources)
    .map(([r, n]) => `${r} ${n}`)
    .join(', ');
  console.log(
    `sync: ${m.sync.total} lines (core ${m.sync.core}, operations ${m.sync.operations}, resources ${m.sync.total - m.sync.core - m.sync.operations})`,
  );
  console.log(`lines per replicated resource: ${perResource}`);
  const members = Object.values(m.members);
  const must = members.reduce((n, x) => n + x.required, 0);
  const may = members.reduce((n, x) => n + x.optional, 0);
  console.log(
    `members a resource implements: ${must} required, ${may} optional (${Object.entries(m.members)
      .map(([i, x]) => `${i} ${x.required}+${x.optional}`)
      .join(', ')})`,
  );
  console.log(`folder-level cycles in src-main: ${m.folderCyclesInMain}`);
  console.log(`resources named in the generic sync core: ${m.resourcesNamedInSyncCore}`);
  console.log(`import cycles: ${m.importCycles} (of values only: ${m.valueImportCycles})`);
  console.log(
    `adding a replicated resource: its folder sync/resources/<resource>/ + ${m.filesOutsideTheFolderToAddAResource.length} line(s) in ${m.filesOutsideTheFolderToAddAResource.join(', ')}`,
  );
  console.log(`any in sync: ${m.anyInSync} (${m.anyInSyncWithoutReason} without a comment saying why)`);
  console.log(
    `copies of a field list: ${m.fieldListCopies.length}${m.fieldListCopies.map((c) => `\n  ${c.copy} repeats ${c.list} (${c.shared.join(', ')})`).join('')}`,
  );
  // The walk-through of docs/ARCHITECTURE.md performed in a temporary copy (a resource that refers to annotations).
  const added = addThrowawayResource();
  console.log(
    `adding a replicated resource with a reference to annotations (docs/ARCHITECTURE.md, done in a copy): ${added.changed.length} files (${added.changed.join(', ')}); ${added.typeErrors.length} type errors; its catalog: ${added.catalog}`,
  );
}
