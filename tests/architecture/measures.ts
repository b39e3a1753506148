// The measures of issue #17, printed by `npm run measures` (and checked by
// measures.test.ts): resources named in the generic sync core, import cycles,
// files touched to add a replicated resource, and `any` in sync.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { importCycles, importGraph, ROOT, sourceFiles } from './importGraph';
import { resourceNamesInCore } from './resourceNames';

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

export function measures() {
  const edges = importGraph(['src-shared', 'src-main', 'src-renderer/src']);
  const anys = anyInSync();
  return {
    resourcesNamedInSyncCore: resourceNamesInCore().length,
    importCycles: importCycles(edges).length,
    valueImportCycles: importCycles(edges, true).length,
    filesOutsideTheFolderToAddAResource: filesNamingResourceFolders(),
    anyInSync: anys.length,
    anyInSyncWithoutReason: anys.filter((a) => !a.explained).length,
  };
}

export function main(): void {
  const m = measures();
  console.log(`resources named in the generic sync core: ${m.resourcesNamedInSyncCore}`);
  console.log(`import cycles: ${m.importCycles} (of values only: ${m.valueImportCycles})`);
  console.log(
    `adding a replicated resource: its folder sync/resources/<resource>/ + ${m.filesOutsideTheFolderToAddAResource.length} line(s) in ${m.filesOutsideTheFolderToAddAResource.join(', ')}`,
  );
  console.log(`any in sync: ${m.anyInSync} (${m.anyInSyncWithoutReason} without a comment saying why)`);
}
