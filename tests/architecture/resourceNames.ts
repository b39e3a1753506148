// Where the generic sync core names a replicated resource: its resource name
// (`annotation`), table (`annotations`), wire and type names (`Annotation`,
// `annotationId`) or operations (`CreateAnnotation`), in code (comments and
// documentation may use a resource as an example).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { ROOT, sourceFiles } from './importGraph';

/**
 * The replicated and pulled resources, as word sequences: an identifier or string names one when its words (split at
 * case changes, underscores and other separators; plurals folded) contain the sequence. (The reference data's users
 * and runs are not listed: "user" and "run" mean the sync's own identity and run too.)
 */
export const RESOURCE_WORDS: readonly (readonly string[])[] = [
  ['annotation'],
  ['saved', 'search'],
  ['policy'],
  ['test', 'report'],
  ['test', 'step'],
  ['test', 'measurement'],
  ['artifact'],
  ['remote', 'file'],
  ['rule'],
  ['asset'],
  ['channel'],
  ['tag'],
];

/** Words that contain a resource word without naming one. */
const NOT_A_RESOURCE: readonly (readonly string[])[] = [['retry', 'policy']];

const singular = (w: string) =>
  w.endsWith('ies')
    ? `${w.slice(0, -3)}y`
    : w.endsWith('es') && w.endsWith('ches')
      ? w.slice(0, -2)
      : w.endsWith('s') && !w.endsWith('ss')
        ? w.slice(0, -1)
        : w;

/** The words of an identifier or string: `createdByUserId` -> created, by, user, id; `ANNOTATION_LOG` -> annotation, log. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => singular(w.toLowerCase()));
}

const at = (words: readonly string[], i: number, seq: readonly string[]) => seq.every((w, j) => words[i + j] === w);

/** The resource an identifier or string names, if any. */
export function resourceNamedBy(text: string): string | undefined {
  const words = wordsOf(text);
  for (let i = 0; i < words.length; i++) {
    const exempt = NOT_A_RESOURCE.find((seq) => at(words, i, seq));
    if (exempt) {
      i += exempt.length - 1;
      continue;
    }
    const named = RESOURCE_WORDS.find((seq) => at(words, i, seq));
    if (named) return named.join(' ');
  }
  return undefined;
}

export interface Naming {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

function namesIn(file: string): Naming[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Naming[] = [];
  const visit = (node: ts.Node) => {
    let word: string | undefined;
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) word = node.text;
    else if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    )
      word = node.text;
    // Import paths name modules, not resources (and a core module imports none of the resource folders anyway).
    if (word !== undefined && !(node.parent && (ts.isImportDeclaration(node.parent) || ts.isExportDeclaration(node.parent)))) {
      if (resourceNamedBy(word)) found.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: word });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The generic sync core: every sync module outside the resource folders (and outside tests). */
export function syncCoreFiles(): string[] {
  return sourceFiles(['src-main/sync']).filter((f) => !f.startsWith('src-main/sync/resources/') && !f.endsWith('.test.ts'));
}

/** Each place a core module names a resource. */
export function resourceNamesInCore(): Naming[] {
  return syncCoreFiles().flatMap(namesIn);
}
