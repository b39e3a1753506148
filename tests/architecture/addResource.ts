// The walk-through of docs/ARCHITECTURE.md ("How to add a replicated
// resource"), performed in a temporary copy of the sources: its files written
// from the page's code blocks (each opens with `// <path>`), the descriptor
// added to sync/resources/index.ts, the result type-checked and its catalog
// loaded. What it returns is the measure "places touched to add a resource"
// (npm run measures) and what addResource.test.ts holds the page to.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { ROOT } from './importGraph';

const INDEX = 'src-main/sync/resources/index.ts';

/** The page's code blocks that open with `// <path>`: the files the walk-through writes. */
export function walkThroughFiles(): { path: string; text: string }[] {
  const page = readFileSync(join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
  const section = page.slice(page.indexOf('### How to add a replicated resource'));
  return [...section.matchAll(/```ts\n\/\/ (\S+)\n([\s\S]*?)```/g)].map((m) => ({ path: m[1], text: m[2] }));
}

export interface AddedResource {
  /** Every file that was written or changed, relative to the sources' root. */
  readonly changed: string[];
  /** Type errors in the copy (file: message). */
  readonly typeErrors: string[];
  /** What the copy's catalog says of the new kind (its declared references), or the error loading it. */
  readonly catalog: string;
}

/** The descriptor's import and its place at the end of the list in sync/resources/index.ts. */
function addToIndex(index: string, name: string, folder: string): string {
  const lastImport = index.lastIndexOf('\nimport ');
  const afterImports = index.indexOf('\n', lastImport + 1) + 1;
  const withImport = `${index.slice(0, afterImports)}import { ${name} } from './${folder}/descriptor';\n${index.slice(afterImports)}`;
  return withImport.replace(/(\n\s*)([A-Za-z]+),\n\];/, `$1$2,$1${name},\n];`);
}

export function addThrowawayResource(): AddedResource {
  const files = walkThroughFiles();
  const descriptor = files.find((f) => /^src-main\/sync\/resources\/[^/]+\/descriptor\.ts$/.test(f.path));
  if (!descriptor) throw new Error('docs/ARCHITECTURE.md: the walk-through has no sync/resources/<resource>/descriptor.ts block');
  const folder = descriptor.path.split('/')[3];
  const name = /export const (\w+): ReplicatedResource/.exec(descriptor.text)?.[1];
  if (!name) throw new Error(`${descriptor.path}: no exported ReplicatedResource`);

  const copy = mkdtempSync(join(tmpdir(), 'outpost-add-resource-'));
  try {
    for (const dir of ['src-shared', 'src-main']) cpSync(join(ROOT, dir), join(copy, dir), { recursive: true });
    for (const file of ['tsconfig.json', 'package.json']) cpSync(join(ROOT, file), join(copy, file));
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');

    const changed: string[] = [];
    for (const f of files) {
      mkdirSync(dirname(join(copy, f.path)), { recursive: true });
      writeFileSync(join(copy, f.path), f.text);
      changed.push(f.path);
    }
    writeFileSync(join(copy, INDEX), addToIndex(readFileSync(join(ROOT, INDEX), 'utf8'), name, folder));
    changed.push(INDEX);

    const config = ts.getParsedCommandLineOfConfigFile(
      join(copy, 'tsconfig.json'),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    );
    const written = [...new Set(changed)].map((f) => join(copy, f));
    const program = ts.createProgram(written, config!.options);
    // The files the walk-through wrote or changed (checking the whole program again would repeat tsc's work).
    const diagnostics = [
      ...program.getGlobalDiagnostics(),
      ...written.flatMap((f) => [
        ...program.getSyntacticDiagnostics(program.getSourceFile(f)),
        ...program.getSemanticDiagnostics(program.getSourceFile(f)),
      ]),
    ];
    const typeErrors = diagnostics.map((d) => {
      const where = d.file ? `${d.file.fileName.slice(copy.length + 1)}: ` : '';
      return `${where}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });

    // The copy's catalog, loaded as the engine loads it (tsx): the kind is there with the references it declares.
    const probe = join(copy, 'probe.ts');
    writeFileSync(
      probe,
      [
        `import { resourceCatalog } from './${INDEX.replace(/\.ts$/, '')}';`,
        `import { ${name} } from './${descriptor.path.replace(/\.ts$/, '')}';`,
        `if (!resourceCatalog.resources.includes(${name})) throw new Error('not in the catalog');`,
        `for (const k of ${name}.records) for (const r of k.references ?? []) console.log(\`\${k.resource}: \${r.column} -> \${r.to}\`);`,
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, [join(ROOT, 'bin/run-ts.mjs'), probe], { cwd: copy, encoding: 'utf8' });
    const catalog = run.status === 0 ? run.stdout.trim() : `failed: ${run.stderr.trim().split('\n').slice(0, 3).join(' ')}`;
    return { changed: changed.filter((f, i) => changed.indexOf(f) === i).sort(), typeErrors, catalog };
  } finally {
    if (existsSync(copy)) rmSync(copy, { recursive: true, force: true });
  }
}
