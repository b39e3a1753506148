// The renderer's sizes are in rem, so a larger browser font size scales the
// whole UI (a field laptop at 150%, a reviewer who needs bigger text): no px
// in a stylesheet but hairlines (1px) and the widths and offsets of borders
// and outlines; breakpoints in em. The layout e2e (tests/e2e/layout.test.ts)
// shows the result; this keeps a new px from slipping in.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT, sourceFiles } from './importGraph';

/** Properties whose px stay px: a hairline's width does not grow with the text. */
const HAIRLINE_PROPERTY =
  /^\s*(outline|outline-offset|outline-width|border(-top|-bottom|-left|-right)?(-width)?|text-underline-offset)\s*:/;

function stylesOf(file: string): Array<{ line: number; text: string }> {
  const source = readFileSync(join(ROOT, file), 'utf8');
  const lines = source.split('\n');
  if (file.endsWith('.css')) return lines.map((text, i) => ({ line: i + 1, text }));
  const out: Array<{ line: number; text: string }> = [];
  let inStyle = false;
  lines.forEach((text, i) => {
    if (/<style[^>]*>/.test(text)) inStyle = true;
    if (inStyle) out.push({ line: i + 1, text });
    if (/<\/style>/.test(text)) inStyle = false;
  });
  return out;
}

test('renderer stylesheets size in rem (px only for hairlines)', () => {
  const files = sourceFiles(['src-renderer/src']).filter((f) => f.endsWith('.svelte') || f.endsWith('.css'));
  expect(files.length).toBeGreaterThan(30);
  const offending = files.flatMap((file) =>
    stylesOf(file)
      .filter(({ text }) => !HAIRLINE_PROPERTY.test(text))
      .filter(({ text }) => [...text.matchAll(/(\d+(?:\.\d+)?)px\b/g)].some((m) => Number(m[1]) > 1))
      .map(({ line, text }) => `${file}:${line}: ${text.trim()}`),
  );
  expect(offending).toEqual([]);
});
