// The project's import graph, read with the TypeScript compiler's parser (no
// type checking: fast enough for a test). Every relative import, export-from,
// dynamic import() and `import('...')` type counts as an edge; type-only
// imports are marked, since they vanish at run time but still tie modules
// together for a reader.
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface ImportEdge {
  readonly from: string;
  readonly to: string;
  /** Erased at run time (`import type`, `import { type X }` only, `import('...')` in a type). */
  readonly typeOnly: boolean;
}

const SOURCE = /\.(ts|svelte)$/;

function walk(dir: string, out: string[]): string[] {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** Source files (repository-relative, `/`-separated) under the given top folders. */
export function sourceFiles(folders: readonly string[]): string[] {
  return folders.flatMap((f) => walk(join(ROOT, f), [])).map((f) => relative(ROOT, f).split(sep).join('/'));
}

function resolveImport(fromFile: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(ROOT, dirname(fromFile), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.svelte`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return relative(ROOT, candidate).split(sep).join('/');
  }
  return undefined;
}

/** The script of a Svelte component (its imports), or the file as is. */
function scriptOf(file: string, text: string): string {
  if (!file.endsWith('.svelte')) return text;
  return [...text.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
}

export function importsOf(file: string): ImportEdge[] {
  const text = scriptOf(file, readFileSync(join(ROOT, file), 'utf8'));
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edges: ImportEdge[] = [];
  const add = (spec: string, typeOnly: boolean) => {
    const to = resolveImport(file, spec);
    if (to) edges.push({ from: file, to, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const allTypes =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name && !!named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier.text, allTypes);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.isTypeOnly);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

export function importGraph(folders: readonly string[]): ImportEdge[] {
  return sourceFiles(folders).flatMap(importsOf);
}

/**
 * The import cycles: each strongly connected component of more than one file (or a file importing itself), as
 * its sorted file list. `valueOnly`: only imports that remain at run time (the cycles that can throw
 * "Cannot access X before initialization" under plain ESM).
 */
export function importCycles(edges: readonly ImportEdge[], valueOnly = false): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (valueOnly && e.typeOnly) continue;
    if (!next.has(e.from)) next.set(e.from, []);
    next.get(e.from)!.push(e.to);
  }
  // Tarjan's strongly connected components (iterative: deep graphs would overflow the stack).
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  for (const start of next.keys()) {
    if (indexOf.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    indexOf.set(start, index);
    low.set(start, index++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1];
      const targets = next.get(top.node) ?? [];
      if (top.i < targets.length) {
        const to = targets[top.i++];
        if (!indexOf.has(to)) {
          indexOf.set(to, index);
          low.set(to, index++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, i: 0 });
        } else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, indexOf.get(to)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === indexOf.get(top.node)) {
        const component: string[] = [];
        let n: string;
        do {
          n = stack.pop()!;
          onStack.delete(n);
          component.push(n);
        } while (n !== top.node);
        const selfLoop = (next.get(top.node) ?? []).includes(top.node);
        if (component.length > 1 || selfLoop) components.push(component.sort());
      }
    }
  }
  return components;
}

/**
 * The folder a file belongs to, for the folder-level graph: its directory, except that a file at the top of
 * src-main is the unit its name says (engine.ts is `src-main/engine`; cli.ts joins the `src-main/cli` folder),
 * as areaOf (layers.ts) reads it.
 */
export function folderOf(file: string): string {
  const top = /^src-main\/([^/]+)\.ts$/.exec(file);
  return top ? `src-main/${top[1]}` : dirname(file);
}

/** The import graph between folders (edges inside a folder dropped). */
export function folderGraph(edges: readonly ImportEdge[]): ImportEdge[] {
  const seen = new Map<string, ImportEdge>();
  for (const e of edges) {
    const from = folderOf(e.from);
    const to = folderOf(e.to);
    if (from === to) continue;
    const key = `${from} ${to}`;
    // An edge between folders is type-only if every import it stands for is.
    const prior = seen.get(key);
    seen.set(key, { from, to, typeOnly: (prior?.typeOnly ?? true) && e.typeOnly });
  }
  return [...seen.values()];
}
