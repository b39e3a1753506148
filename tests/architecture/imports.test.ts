// The import graph of the source tree holds its shape: no import cycle (type
// imports included: they tie modules together for a reader just the same), no
// import against the layer rules (layers.ts), and the generic sync core names
// no replicated resource (each lives in its folder under sync/resources/).
import { describe, expect, test } from 'vitest';
import { folderGraph, folderOf, importCycles, importGraph } from './importGraph';
import { areaOf, MAY_IMPORT } from './layers';
import { resourceNamedBy, resourceNamesInCore } from './resourceNames';

const SOURCES = ['src-shared', 'src-main', 'src-renderer/src'];
const edges = importGraph(SOURCES);

describe('the import graph', () => {
  test('has edges (the scanner reads the tree)', () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual({ from: 'src-main/sync/runSync.ts', to: 'src-main/sync/push.ts', typeOnly: false });
  });

  test('has no import cycle', () => {
    expect(importCycles(edges)).toEqual([]);
  });

  test('has no cycle between the folders of src-main: each folder depends on others one way', () => {
    expect(importCycles(folderGraph(edges.filter((e) => e.from.startsWith('src-main/'))))).toEqual([]);
  });

  test('follows the layer rules: renderer -> shared <- main; db <- filter <- auth <- engine <- services <- sync <- http, electron, cli', () => {
    const violations = edges
      .map((e) => ({ ...e, fromArea: areaOf(e.from), toArea: areaOf(e.to) }))
      .filter((e) => e.fromArea && e.toArea && !MAY_IMPORT[e.fromArea].includes(e.toArea))
      .map((e) => `${e.from} -> ${e.to}`);
    expect(violations).toEqual([]);
  });
});

describe('the checks themselves', () => {
  test('a cycle is found, type imports included unless asked for values only', () => {
    const graph = [
      { from: 'a.ts', to: 'b.ts', typeOnly: false },
      { from: 'b.ts', to: 'c.ts', typeOnly: false },
      { from: 'c.ts', to: 'a.ts', typeOnly: true },
      { from: 'c.ts', to: 'd.ts', typeOnly: false },
    ];
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(importCycles(graph, true)).toEqual([]);
  });

  test('a cycle between folders is found behind an acyclic file graph; a top file of src-main is a folder of its own', () => {
    const graph = [
      { from: 'src-main/db/database.ts', to: 'src-main/filter/regex.ts', typeOnly: false },
      { from: 'src-main/filter/regex.ts', to: 'src-main/db/types.ts', typeOnly: true },
      { from: 'src-main/engine.ts', to: 'src-main/cli/command.ts', typeOnly: false },
      { from: 'src-main/cli/command.ts', to: 'src-main/cli.ts', typeOnly: false },
    ];
    expect(importCycles(graph)).toEqual([]);
    expect(importCycles(folderGraph(graph))).toEqual([['src-main/db', 'src-main/filter']]);
    expect(folderOf('src-main/cli.ts')).toBe('src-main/cli');
    expect(folderOf('src-main/engine.ts')).toBe('src-main/engine');
  });

  test('a resource is recognised in identifiers and strings, and retry policies are not policies', () => {
    expect(resourceNamedBy('annotationsPuller')).toBe('annotation');
    expect(resourceNamedBy('SELECT id FROM annotation_logs')).toBe('annotation');
    expect(resourceNamedBy('BatchArchiveAnnotations')).toBe('annotation');
    expect(resourceNamedBy('SAVED_SEARCH')).toBe('saved search');
    expect(resourceNamedBy('testMeasurements')).toBe('test measurement');
    expect(resourceNamedBy('RetryPolicy')).toBeUndefined();
    expect(resourceNamedBy('createdByUserId')).toBeUndefined();
  });

  test('a renderer module may not import main, and services may not import sync', () => {
    expect(MAY_IMPORT[areaOf('src-renderer/src/App.svelte')!]).not.toContain(areaOf('src-main/engine.ts'));
    expect(MAY_IMPORT[areaOf('src-main/services/invoke.ts')!]).not.toContain(areaOf('src-main/sync/outbox.ts'));
    expect(MAY_IMPORT[areaOf('src-main/engine.ts')!]).not.toContain(areaOf('src-main/sync/replica.ts'));
    expect(MAY_IMPORT[areaOf('src-main/db/database.ts')!]).not.toContain(areaOf('src-main/filter/regexFunction.ts'));
    expect(MAY_IMPORT[areaOf('src-main/filter/celToSql.ts')!]).not.toContain(areaOf('src-main/auth/defaultPolicy.ts'));
  });
});

describe('the generic sync core', () => {
  test('names no replicated resource in its code (resources/<resource>/ does)', () => {
    expect(resourceNamesInCore().map((n) => `${n.file}:${n.line} ${n.text}`)).toEqual([]);
  });
});
