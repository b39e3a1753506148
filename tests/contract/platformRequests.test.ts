// The table of what the sync may ask the platform
// (src-main/sync/resources/platformRequests.ts) against the wire reference and
// the operation table: every operation it names is a route of the reference
// (method and path as Outpost serves them), every query parameter, order
// field, filter field and mask path it allows is written in the section it
// cites (order fields: in that list's row of §1.6), and the operations it
// marks as Outpost extensions are exactly the table's extensions.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { z } from 'zod';
import type { OperationDef } from '../../src-shared/api/operation';
import { camelToSnake, documentedObject } from '../../src-shared/api/wire';
import { operations } from '../../src-shared/operations';
import { platformRequests, type PlatformRequest } from '../../src-main/sync/resources/platformRequests';

const ROOT = join(__dirname, '../..');
/** The wire reference the project keeps (docs/reference/sift-wire.md; SIFT_WIRE_REFERENCE may name a newer one). */
const REFERENCE_CANDIDATES = [process.env.SIFT_WIRE_REFERENCE ?? '', join(ROOT, 'docs/reference/sift-wire.md')];
const referencePath = REFERENCE_CANDIDATES.find((p) => p && existsSync(p));

const entries = Object.entries(platformRequests as Record<string, PlatformRequest>);
const opOf = (name: string) => (operations as Record<string, OperationDef>)[name];

/** The reference's text of section `n` (`## n.` or `### n.m`, up to the next heading of the same or a higher level). */
function section(reference: string, n: string): string {
  const level = n.includes('.') ? '###' : '##';
  const start = reference.search(new RegExp(`^${level} ${n.replace('.', '\\.')}[. ]`, 'm'));
  if (start < 0) throw new Error(`the reference has no section ${n}`);
  const rest = reference.slice(reference.indexOf('\n', start));
  const end = rest.search(level === '##' ? /^## /m : /^##+ /m);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The words of the paragraphs of `text` (runs of non-blank lines) that start at a line matching `heading`. */
function paragraphWords(text: string, heading: RegExp): Set<string> {
  const words = new Set<string>();
  let inside = false;
  for (const line of text.split('\n')) {
    if (!line.trim()) inside = false;
    else if (heading.test(line)) inside = true;
    if (inside) for (const w of line.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) words.add(w);
  }
  return words;
}

const sectionsOf = (source: string) => [...source.matchAll(/§(\d+(?:\.\d+)?)/g)].map((m) => m[1]);

describe('what the sync may ask the platform', () => {
  test('the reference is in docs/reference (or where SIFT_WIRE_REFERENCE names it)', () => {
    expect(referencePath, `sift-wire.md not found at ${REFERENCE_CANDIDATES.filter(Boolean).join(' or ')}`).toBeDefined();
  });

  test('every operation named is in the operation table; extensions are exactly those the table marks so', () => {
    for (const [name, rule] of entries) {
      const op = opOf(name);
      expect(op, name).toBeDefined();
      expect(op.extension === true, `${name}: ${rule.source}`).toBe(rule.source === 'Outpost extension');
    }
  });

  test('query parameters are fields of the request as the operation table defines it, and only GET/DELETE take them', () => {
    for (const [name, rule] of entries) {
      const op = opOf(name);
      if (!rule.query) continue;
      expect(op.method === 'GET' || op.method === 'DELETE', name).toBe(true);
      const object = documentedObject.get(op.request) ?? op.request;
      const fields = Object.keys((object as z.ZodObject).shape).map(camelToSnake);
      for (const q of rule.query) expect(fields, `${name} ${q}`).toContain(q);
    }
  });

  test('routes, parameters, order fields, filter fields and mask paths are the reference`s, in the sections cited', () => {
    const reference = readFileSync(referencePath!, 'utf8');
    const listRows = section(reference, '1.6');
    for (const [name, rule] of entries) {
      if (rule.source === 'Outpost extension' || rule.source === 'seed spec') continue;
      const op = opOf(name);
      const cited = sectionsOf(rule.source);
      expect(cited.length, `${name} cites no section`).toBeGreaterThan(0);
      const text = cited.map((n) => section(reference, n)).join('\n');
      // The route: METHOD and path in one row of a cited section (the RPC may be named differently, e.g. GetMe).
      const route = `| ${op.method} | ${op.path} |`;
      expect(text.includes(route) || text.includes(`${op.method} ${op.path}`), `${name}: ${route} in §${cited.join(', §')}`).toBe(true);
      const words = new Set(text.match(/[A-Za-z_][A-Za-z0-9_]*/g));
      for (const field of rule.query ?? [])
        expect(words.has(field), `${name}: query "${field}" is not written in §${cited.join(', §')}`).toBe(true);
      const filterWords = paragraphWords(text, /filter/i);
      for (const field of rule.filter ?? [])
        expect(filterWords.has(field), `${name}: filter field "${field}" is not listed in §${cited.join(', §')}`).toBe(true);
      const maskWords = paragraphWords(text, /updatable/i);
      for (const path of rule.mask ?? [])
        expect(maskWords.has(path), `${name}: mask path "${path}" is not listed as updatable in §${cited.join(', §')}`).toBe(true);
      if (rule.orderBy) {
        const row = listRows.split('\n').find((l) => l.includes(`| ${op.path}`) || l.startsWith(`| ${name} `));
        expect(row, `${name}: no row in the list table of §1.6`).toBeDefined();
        const orderCell = row!.split('|')[5];
        for (const field of rule.orderBy) expect(orderCell.split(/[ ,;]+/), `${name} order_by ${field}`).toContain(field);
      }
    }
  });

  test('ListArtifacts allows what the seed spec does: no modified_date, no include_archived parameter', () => {
    const rule: PlatformRequest = platformRequests.ListArtifacts;
    expect(rule.orderBy).toEqual(['created_date', 'version_created_date', 'archived_date', 'title', 'version', 'file_type']);
    expect(rule.query).not.toContain('include_archived');
    expect(rule.filter).toContain('include_archived');
    expect(rule.filter).not.toContain('modified_date');
  });
});
