import { createReadStream, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  AtmlParseError,
  parseAtml,
  parseAtmlFile,
  parseAtmlTimestamp,
  type AtmlSink,
  type ParsedMeasurement,
  type ParsedReport,
  type ParsedStep,
} from './atmlParser';

const FIXTURE = fileURLToPath(new URL('../../../tests/fixtures/teststand/demo_test_report.xml', import.meta.url));
const FIXTURE_BYTES = readFileSync(FIXTURE);
const FIXTURE_TEXT = FIXTURE_BYTES.toString('latin1');

interface Collected {
  report: ParsedReport | null;
  steps: ParsedStep[];
  measurements: ParsedMeasurement[];
  /** Emission order, e.g. "s:3", "m:3" (step key / measurement step key), "r". */
  order: string[];
  result: { steps: number; measurements: number };
}

function collector(): { sink: AtmlSink; out: Omit<Collected, 'result'> } {
  const out: Omit<Collected, 'result'> = { report: null, steps: [], measurements: [], order: [] };
  const sink: AtmlSink = {
    report: (r) => {
      out.report = r;
      out.order.push('r');
    },
    step: (s) => {
      out.steps.push(s);
      out.order.push(`s:${s.key}`);
    },
    measurement: (m) => {
      out.measurements.push(m);
      out.order.push(`m:${m.stepKey}`);
    },
  };
  return { sink, out };
}

async function collect(source: AsyncIterable<Uint8Array> | NodeJS.ReadableStream): Promise<Collected> {
  const { sink, out } = collector();
  const result = await parseAtml(source, sink);
  return { ...out, result };
}

async function* chunks(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

function bytesOf(text: string, encoding: BufferEncoding = 'latin1'): Uint8Array {
  return new Uint8Array(Buffer.from(text, encoding));
}

async function parseText(text: string, encoding: BufferEncoding = 'latin1'): Promise<Collected> {
  return collect(chunks(bytesOf(text, encoding), 4096));
}

async function expectParseError(text: string | Uint8Array, pattern: RegExp): Promise<AtmlParseError> {
  const bytes = typeof text === 'string' ? bytesOf(text) : text;
  const { sink } = collector();
  const err = await parseAtml(chunks(bytes, 4096), sink).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AtmlParseError);
  const e = err as AtmlParseError;
  expect(e.message).toMatch(pattern);
  expect(e.message).not.toMatch(/\n\s+at /);
  return e;
}

const iso = (micros: number): string => new Date(micros / 1000).toISOString();
const at = (hms: string): string => `2025-09-10T${hms}Z`;

function meta(s: { metadata: { key: string; stringValue?: string; numberValue?: number }[] }, key: string) {
  const m = s.metadata.find((x) => x.key === key);
  return m?.stringValue ?? m?.numberValue;
}

function tally<T>(items: T[], f: (t: T) => string | number | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of items) {
    const k = String(f(t));
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

describe('parseAtml on the TestStand demo report', () => {
  let parsed: Collected;
  const byPath = new Map<string, ParsedStep>();
  const depth = (s: ParsedStep): number => s.stepPath.split('.').length - 1;

  it('parses the fixture file', async () => {
    const t0 = performance.now();
    const { sink, out } = collector();
    const result = await parseAtmlFile(FIXTURE, sink);
    parsed = { ...out, result };
    const ms = performance.now() - t0;
    expect(ms).toBeLessThan(5000);
    for (const s of parsed.steps) byPath.set(s.stepPath, s);
    expect(parsed.result).toEqual({ steps: 223, measurements: 15 });
    expect(parsed.steps).toHaveLength(223);
    expect(parsed.measurements).toHaveLength(15);
  });

  it('emits parents before children, measurements after their step, and the report last', () => {
    parsed.steps.forEach((s, i) => expect(s.key).toBe(i));
    for (const s of parsed.steps) {
      if (s.parentKey !== null) expect(s.parentKey).toBeLessThan(s.key);
    }
    const pos = new Map(parsed.order.map((o, i) => [o, i] as const));
    for (const m of parsed.measurements) {
      expect(pos.get(`s:${m.stepKey}`)).toBeLessThan(parsed.order.indexOf(`m:${m.stepKey}`));
    }
    expect(parsed.order[parsed.order.length - 1]).toBe('r');
  });

  it('maps the report (5.1)', () => {
    const r = parsed.report;
    expect(r).not.toBeNull();
    if (r === null) return;
    expect(r.name).toBe('test_sequence.seq#OuterSequence');
    expect(r.testCase).toBe('test_sequence.seq#OuterSequence');
    expect(r.testSystemName).toBe('LPTC-02-WIN');
    expect(r.serialNumber).toBe('NONE');
    expect(r.partNumber).toBe('00008701-913');
    expect(r.systemOperator).toBe('ian');
    expect(iso(r.startTime)).toBe('2025-09-10T11:25:07.560Z');
    expect(iso(r.endTime)).toBe('2025-09-10T12:37:00.061Z');
    expect(r.startTime).toBe(Date.UTC(2025, 8, 10, 11, 25, 7, 560) * 1000);
    // 71 min 52.501 s, which agrees with ts:TotalTime 4312.5 s.
    expect(r.endTime - r.startTime).toBe(4_312_501_000);
    expect(r.status).toBe('TEST_STATUS_PASSED');
    expect(r.metadata).toEqual(
      expect.arrayContaining([
        { key: 'uuid', stringValue: '65fed544-a2c7-4e7a-a482-f815b899fbdc' },
        { key: 'model_name', stringValue: 'UNKNOWN' },
        { key: 'RUN_NUMBER', stringValue: '3898' },
      ]),
    );
    expect(r.metadata).toHaveLength(3);
  });

  it('counts steps by type, status, depth and TestStand metadata (4, 5.2)', () => {
    const steps = parsed.steps;
    expect(tally(steps, (s) => s.stepType)).toEqual({
      TEST_STEP_TYPE_SEQUENCE: 1,
      TEST_STEP_TYPE_GROUP: 24,
      TEST_STEP_TYPE_ACTION: 136,
      TEST_STEP_TYPE_FLOW_CONTROL: 62,
    });
    expect(tally(steps, (s) => s.status)).toEqual({ TEST_STATUS_PASSED: 217, TEST_STATUS_SKIPPED: 6 });
    expect(tally(steps, depth)).toEqual({ 0: 1, 1: 16, 2: 76, 3: 130 });
    expect(Math.max(...steps.map((s) => s.stepPath.split('.').length))).toBe(4);
    expect(tally(steps, (s) => meta(s, 'step_type'))).toEqual({
      Action: 97,
      NI_Flow_End: 31,
      NI_Flow_While: 27,
      SequenceCall: 25,
      NumericLimitTest: 16,
      NI_Wait: 12,
      AdditionalResults: 9,
      NI_Flow_If: 4,
      PassFailTest: 1,
      Label: 1,
    });
    expect(tally(steps, (s) => meta(s, 'step_group'))).toEqual({ Main: 222, Setup: 1 });
    // TestGroups carry their caller's name as description; SequenceCall Tests (loop summaries, skipped calls) do not.
    const groups = steps.filter((s) => s.stepType === 'TEST_STEP_TYPE_GROUP' && s.description !== '');
    expect(groups).toHaveLength(19);
    expect(tally(groups, depth)).toEqual({ 1: 11, 2: 8 });
    const sequenceCallTests = steps.filter((s) => s.stepType === 'TEST_STEP_TYPE_GROUP' && s.description === '');
    expect(sequenceCallTests.map((s) => s.stepPath)).toEqual(['1.4', '1.5', '1.9', '1.14', '1.15']);
    const skipped = steps.filter((s) => s.status === 'TEST_STATUS_SKIPPED');
    expect(skipped.map((s) => s.stepPath).sort()).toEqual(['1.14', '1.15', '1.4', '1.6.2', '1.7.2', '1.8.2']);
    for (const p of ['1.6.2', '1.7.2', '1.8.2']) expect(byPath.get(p)?.name).toBe('Verify sccs_fm Measurement');
    // Every step except the ResultSet has a result id and a step-definition reference.
    expect(steps.filter((s) => meta(s, 'result_id') !== undefined)).toHaveLength(223);
    expect(steps.filter((s) => meta(s, 'test_reference_id') !== undefined)).toHaveLength(222);
    expect(new Set(steps.map((s) => meta(s, 'result_id'))).size).toBe(223);
    // The one error cluster in the file has Occurred=false.
    expect(steps.filter((s) => s.errorInfo !== null)).toHaveLength(0);
    expect(steps.filter((s) => s.metadata.some((m) => m.key === 'outcome'))).toHaveLength(0);
  });

  it('maps the ResultSet step', () => {
    const rs = parsed.steps[0];
    expect(rs).toMatchObject({
      key: 0,
      parentKey: null,
      stepPath: '1',
      name: 'test_sequence.seq#OuterSequence',
      description: '',
      stepType: 'TEST_STEP_TYPE_SEQUENCE',
      status: 'TEST_STATUS_PASSED',
      errorInfo: null,
    });
    expect(iso(rs.startTime)).toBe('2025-09-10T11:25:07.560Z');
    expect(iso(rs.endTime)).toBe('2025-09-10T12:37:00.061Z');
    expect(meta(rs, 'result_id')).toBe('8');
  });

  it('maps the direct children of the ResultSet (4.1)', () => {
    const G = 'TEST_STEP_TYPE_GROUP';
    const P = 'TEST_STATUS_PASSED';
    const S = 'TEST_STATUS_SKIPPED';
    const rows: [string, string, string, string, string, string, number][] = [
      ['1.1', 'test_sequence.seq#Setup', 'Setup', P, '11:25:46.159', '11:28:02.026', 145],
      ['1.2', 'test_sequence.seq#Proof Test', 'Proof Test', P, '11:28:30.485', '11:45:47.747', 1],
      ['1.3', 'test_sequence.seq#Cycle Test', 'Cycle Test', P, '11:46:05.141', '11:56:52.857', 1],
      ['1.4', 'Cycle Test Custom', '', S, '11:56:52.880', '11:56:52.918', 0],
      ['1.5', '1754PSI Internal and External Leakage Test', '', P, '11:57:06.433', '12:30:21.145', 0],
      [
        '1.6',
        'test_sequence.seq#Int and Ext Leakage Test',
        '50PSI Internal and External Leakage Test (Loop Index:0)',
        P,
        '11:57:06.433',
        '12:08:10.702',
        4,
      ],
      [
        '1.7',
        'test_sequence.seq#Int and Ext Leakage Test',
        '300PSI Internal and External Leakage Test (Loop Index:0)',
        P,
        '12:08:10.708',
        '12:19:14.859',
        4,
      ],
      [
        '1.8',
        'test_sequence.seq#Int and Ext Leakage Test',
        '1754PSI Internal and External Leakage Test (Loop Index:0)',
        P,
        '12:19:14.864',
        '12:30:21.145',
        4,
      ],
      ['1.9', '1754PSI Pull In Current Test', '', P, '12:31:23.415', '12:35:20.328', 0],
      ['1.10', 'test_sequence.seq#Pull In Current Test', '50PSI Pull In Current Test (Loop Index:0)', P, '12:31:23.415', '12:32:14.101', 5],
      [
        '1.11',
        'test_sequence.seq#Pull In Current Test',
        '300PSI Pull In Current Test (Loop Index:0)',
        P,
        '12:32:14.107',
        '12:33:26.269',
        5,
      ],
      [
        '1.12',
        'test_sequence.seq#Pull In Current Test',
        '1754PSI Pull In Current Test (Loop Index:0)',
        P,
        '12:33:26.273',
        '12:35:20.328',
        5,
      ],
      ['1.13', 'test_sequence.seq#Drop Out Test', 'Drop Out Current Test', P, '12:35:31.678', '12:36:25.218', 6],
      ['1.14', 'Cycle Test Relief', '', S, '12:36:36.497', '12:36:36.497', 0],
      ['1.15', 'Reverse Crack Pressure', '', S, '12:36:36.498', '12:36:36.553', 0],
      ['1.16', 'test_sequence.seq#Known State', 'Known State', P, '12:36:36.554', '12:36:48.728', 26],
    ];
    const top = parsed.steps.filter((s) => s.parentKey === 0);
    expect(top.map((s) => s.stepPath)).toEqual(rows.map((r) => r[0]));
    const children = new Map<number, number[]>();
    for (const s of parsed.steps) if (s.parentKey !== null) children.set(s.parentKey, [...(children.get(s.parentKey) ?? []), s.key]);
    const descendants = (k: number): number => (children.get(k) ?? []).reduce((n, c) => n + 1 + descendants(c), 0);
    for (const [path, name, description, status, start, end, desc] of rows) {
      const s = byPath.get(path);
      expect(s, path).toBeDefined();
      if (s === undefined) continue;
      expect({ path, name: s.name, description: s.description, type: s.stepType, status: s.status }).toEqual({
        path,
        name,
        description,
        type: G,
        status,
      });
      expect(iso(s.startTime), path).toBe(at(start));
      expect(iso(s.endTime), path).toBe(at(end));
      expect(descendants(s.key), path).toBe(desc);
      expect(meta(s, 'step_type'), path).toBe('SequenceCall');
    }
    for (const p of ['1.5', '1.9']) {
      const s = byPath.get(p);
      expect(s && { n: meta(s, 'num_loops'), p: meta(s, 'num_passed'), f: meta(s, 'num_failed'), e: meta(s, 'ending_loop_index') }).toEqual(
        { n: 3, p: 3, f: 0, e: 0 },
      );
    }
    expect(meta(byPath.get('1.7') as ParsedStep, 'loop_index')).toBe(0);
    // Loop iterations share the summary's step definition.
    expect(meta(byPath.get('1.6') as ParsedStep, 'test_reference_id')).toBe(meta(byPath.get('1.5') as ParsedStep, 'test_reference_id'));
    expect(byPath.get('1.1')?.metadata).toEqual([
      { key: 'step_type', stringValue: 'SequenceCall' },
      { key: 'step_group', stringValue: 'Setup' },
      { key: 'test_reference_id', stringValue: 'ID#:EFpT03N/7hGo2nivCKBreC' },
      { key: 'result_id', stringValue: '876' },
    ]);
  });

  it('maps nested steps', () => {
    const s = byPath.get('1.1.1');
    expect(s).toMatchObject({
      name: 'Open source_1_vlv',
      stepType: 'TEST_STEP_TYPE_ACTION',
      status: 'TEST_STATUS_PASSED',
      parentKey: byPath.get('1.1')?.key,
      description: '',
    });
    expect(iso((s as ParsedStep).startTime)).toBe(at('11:25:48.338'));
    expect(iso((s as ParsedStep).endTime)).toBe(at('11:25:52.026'));
    expect(byPath.get('1.1.15')).toMatchObject({ name: 'Check Pressure Rise', stepType: 'TEST_STEP_TYPE_ACTION' });
    expect(byPath.get('1.1.6.1')).toBeDefined();
  });

  it('maps all tr:TestResult measurements (4.2, 5.3)', () => {
    type Row = [string, string, number | boolean, string | null, { min?: number; max?: number } | null, string];
    const decay = 'Check Decay Pressure';
    const rows: Row[] = [
      ['1.1.10.4', decay, 0, 'PSI', { min: 0 }, 'GE 0 PSI'],
      ['1.1.10.8', decay, 0, 'PSI', { min: 0 }, 'GE 0 PSI'],
      ['1.1.15', 'Check Pressure Rise: Passed?', true, null, null, ''],
      ['1.1.15', 'Check Pressure Rise: Failed Value', 0, null, null, ''],
      ['1.1.24.4', decay, 0, 'PSI', { min: 0 }, 'GE 0 PSI'],
      ['1.1.24.8', decay, 0, 'PSI', { min: 0 }, 'GE 0 PSI'],
      ['1.6.1', '50 psi external leak check down-stream pressure', 8.48851665, 'PSIA', { max: 20 }, 'LE 20 PSIA'],
      ['1.6.3', '50 psi internal leak check down-stream pressure', 9.08397234, 'PSIA', { max: 20 }, 'LE 20 PSIA'],
      ['1.6.4', '50 psi internal leak rate', 0.000229174, 'sccs', { max: 0.0005 }, 'LE 0.0005 sccs'],
      ['1.7.1', '300 psi external leak check down-stream pressure', 8.64540325, 'PSIA', { max: 20 }, 'LE 20 PSIA'],
      ['1.7.3', '300 psi internal leak check down-stream pressure', 9.06852177, 'PSIA', { max: 20 }, 'LE 20 PSIA'],
      ['1.7.4', '300 psi internal leak rate', 0.00006278, 'sccs', { max: 0.0005 }, 'LE 0.0005 sccs'],
      ['1.8.1', '1754 psi external leak check down-stream pressure', 8.50634478, 'PSIA', { max: 20 }, 'LE 20 PSIA'],
      ['1.8.3', '1754 psi internal leak check down-stream pressure', 9.37397483, 'PSIA', { max: 20 }, 'LE 20 PSIA'],
      ['1.8.4', '1754 psi internal leak rate', 0.000066831, 'sccs', { max: 0.0005 }, 'LE 0.0005 sccs'],
    ];
    const ms = parsed.measurements;
    expect(ms).toHaveLength(rows.length);
    rows.forEach(([path, name, value, unit, bounds, description], i) => {
      const m = ms[i];
      const step = parsed.steps[m.stepKey];
      expect(step.stepPath, name).toBe(path);
      expect(step.status).toBe('TEST_STATUS_PASSED');
      expect(m.name).toBe(name);
      if (typeof value === 'boolean') {
        expect(m.measurementType).toBe('TEST_MEASUREMENT_TYPE_BOOLEAN');
        expect(m.booleanValue).toBe(value);
        expect(m.numericValue).toBeUndefined();
      } else {
        expect(m.measurementType).toBe('TEST_MEASUREMENT_TYPE_DOUBLE');
        expect(m.numericValue).toBe(value);
        expect(m.booleanValue).toBeUndefined();
      }
      expect(m.stringValue).toBeUndefined();
      expect(m.unit).toBe(unit);
      expect(m.numericBounds).toEqual(bounds);
      expect(m.stringBounds).toBeNull();
      expect(m.description).toBe(description);
      expect(m.passed).toBe(true);
      expect(m.timestamp).toBe(step.endTime);
      expect(meta(m, 'result_id')).toMatch(/^tr-[0-9a-f-]{36}$/);
    });
    expect(tally(ms, (m) => m.measurementType)).toEqual({ TEST_MEASUREMENT_TYPE_DOUBLE: 14, TEST_MEASUREMENT_TYPE_BOOLEAN: 1 });
    expect(tally(ms, (m) => m.unit ?? 'none')).toEqual({ PSIA: 6, PSI: 4, sccs: 3, none: 2 });
    expect(ms.filter((m) => m.numericBounds?.max !== undefined && m.numericBounds.min === undefined)).toHaveLength(9);
    expect(ms.filter((m) => m.numericBounds?.min !== undefined && m.numericBounds.max === undefined)).toHaveLength(4);
    // 15 results in 14 Tests; the three skipped "Verify sccs_fm Measurement" tests have none.
    expect(new Set(ms.map((m) => m.stepKey)).size).toBe(14);
    expect(iso(ms[6].timestamp)).toBe(at('11:57:16.706'));
  });

  it('gives the same result for tiny chunks and for a Node stream', async () => {
    const small = await collect(chunks(new Uint8Array(FIXTURE_BYTES), 997));
    expect(small.result).toEqual(parsed.result);
    expect(small.steps).toEqual(parsed.steps);
    expect(small.measurements).toEqual(parsed.measurements);
    expect(small.report).toEqual(parsed.report);
    // Chunks smaller than the XML declaration: the charset must still be read from it.
    const head = await collect(
      (async function* () {
        yield* chunks(new Uint8Array(FIXTURE_BYTES.subarray(0, 64)), 1);
        yield new Uint8Array(FIXTURE_BYTES.subarray(64));
      })(),
    );
    expect(head.steps).toEqual(parsed.steps);
    const stream = await collect(createReadStream(FIXTURE, { highWaterMark: 4096 }));
    expect(stream.steps).toEqual(parsed.steps);
    expect(stream.report).toEqual(parsed.report);
  });
});

// ---------------------------------------------------------------------------------------------------

const NS =
  'xmlns:trc="urn:IEEE-1636.1:2011:01:TestResultsCollection" xmlns:tr="urn:IEEE-1636.1:2011:01:TestResults" ' +
  'xmlns:c="urn:IEEE-1671:2010:Common" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
  'xmlns:ts="www.ni.com/TestStand/ATMLTestResults/2.0"';

function doc(resultSetBody: string, opts: { decl?: string; uut?: string; operator?: string } = {}): string {
  return (
    `${opts.decl ?? '<?xml version="1.0" encoding="utf-8"?>'}\n` +
    `<trc:TestResultsCollection ${NS}>\n<trc:TestResults uuid="u-1">\n` +
    `<tr:Personnel><tr:SystemOperator ID="op" name="${opts.operator ?? 'op'}"/></tr:Personnel>\n` +
    `<tr:ResultSet ID="1" name="s.seq#Main" startDateTime="2025-01-01T00:00:00.000" endDateTime="2025-01-01T00:01:00.000">\n` +
    `<tr:Outcome value="Failed"/>\n${resultSetBody}</tr:ResultSet>\n` +
    `${opts.uut ?? '<tr:UUT><c:SerialNumber>SN</c:SerialNumber></tr:UUT>'}\n` +
    `</trc:TestResults>\n</trc:TestResultsCollection>\n`
  );
}

function numericTest(name: string, value: string, outcome: string, limits: string, extra = ''): string {
  return (
    `<tr:Test ID="9" name="${name}" startDateTime="2025-01-01T00:00:01.000" endDateTime="2025-01-01T00:00:02.000">` +
    `<tr:Extension><ts:TSStepProperties><ts:StepType>NumericLimitTest</ts:StepType></ts:TSStepProperties></tr:Extension>` +
    `<tr:Outcome value="${outcome}"/>` +
    `<tr:TestResult ID="r" name="Numeric"><tr:TestData><c:Datum value="${value}" xsi:type="ts:TS_double"/></tr:TestData>` +
    `<tr:TestLimits><tr:Limits>${limits}</tr:Limits></tr:TestLimits></tr:TestResult>${extra}</tr:Test>\n`
  );
}

describe('parseAtml edge cases', () => {
  it('decodes ISO-8859-1 bytes per the declaration and UTF-8 split across chunks', async () => {
    const latin = doc('', { decl: '<?xml version="1.0" encoding="ISO-8859-1"?>', operator: 'José Müller' });
    const a = await collect(chunks(bytesOf(latin, 'latin1'), 3));
    expect(a.report?.systemOperator).toBe('José Müller');
    const utf8 = doc('', { operator: 'Zoë 測試 🚀' });
    const b = await collect(chunks(bytesOf(utf8, 'utf8'), 1));
    expect(b.report?.systemOperator).toBe('Zoë 測試 🚀');
    expect(b.report?.status).toBe('TEST_STATUS_FAILED');
    expect(b.steps).toHaveLength(1);
  });

  it('matches namespaces by URI, whatever the prefixes', async () => {
    const text =
      `<?xml version="1.0"?>\n<TestResults xmlns="urn:IEEE-1636.1:2011:01:TestResults" xmlns:k="urn:IEEE-1671:2010:Common" ` +
      `xmlns:i="http://www.w3.org/2001/XMLSchema-instance" xmlns:n="www.ni.com/TestStand/ATMLTestResults/2.0" uuid="x">\n` +
      `<ResultSet name="m" startDateTime="2025-01-01T00:00:00Z" endDateTime="2025-01-01T02:00:00+01:00"><Outcome value="Passed"/>` +
      `<Test name="t" startDateTime="2025-01-01T00:00:00.5" endDateTime="2025-01-01T00:00:00.123456789">` +
      `<Extension><n:TSStepProperties><n:StepType>PassFailTest</n:StepType></n:TSStepProperties></Extension>` +
      `<Outcome value="Failed"/><TestResult name="Passed?"><TestData><k:Datum value="false" i:type="n:TS_boolean"/></TestData></TestResult>` +
      `<TestResult name="Label"><TestData><k:Datum i:type="n:TS_string"><k:Value><![CDATA[a < b]]> &amp; c</k:Value></k:Datum></TestData>` +
      `<TestLimits><Limits><k:Expected comparator="EQ"><k:Datum i:type="n:TS_string"><k:Value>a &lt; b &amp; c</k:Value></k:Datum></k:Expected></Limits></TestLimits></TestResult>` +
      // Looks like TestStand's extension but is in another namespace: must be ignored.
      `</Test><SessionAction name="w" startDateTime="2025-01-01T00:00:01" endDateTime="2025-01-01T00:00:01">` +
      `<Extension><ts:TSStepProperties xmlns:ts="urn:not-ni"><ts:StepType>NI_Flow_While</ts:StepType></ts:TSStepProperties></Extension>` +
      `<ActionOutcome value="Done"/></SessionAction></ResultSet>\n` +
      `<TestStation><k:SerialNumber>  </k:SerialNumber></TestStation><TestProgram><k:SerialNumber>\n\t prog \n</k:SerialNumber></TestProgram>` +
      `<UUT><k:SerialNumber>S</k:SerialNumber></UUT></TestResults>\n`;
    const r = await parseText(text, 'utf8');
    expect(r.report?.startTime).toBe(Date.UTC(2025, 0, 1) * 1000);
    expect(r.report?.endTime).toBe(Date.UTC(2025, 0, 1, 1) * 1000);
    expect(r.report?.testSystemName).toBe('prog');
    expect(r.report?.metadata).toEqual([{ key: 'uuid', stringValue: 'x' }]);
    expect(r.steps.map((s) => [s.stepPath, s.stepType, s.status])).toEqual([
      ['1', 'TEST_STEP_TYPE_SEQUENCE', 'TEST_STATUS_PASSED'],
      ['1.1', 'TEST_STEP_TYPE_ACTION', 'TEST_STATUS_FAILED'],
      ['1.2', 'TEST_STEP_TYPE_ACTION', 'TEST_STATUS_PASSED'],
    ]);
    expect(r.steps[1].startTime).toBe(Date.UTC(2025, 0, 1) * 1000 + 500_000);
    expect(r.steps[1].endTime).toBe(Date.UTC(2025, 0, 1) * 1000 + 123_456);
    expect(r.measurements).toMatchObject([
      { name: 't: Passed?', measurementType: 'TEST_MEASUREMENT_TYPE_BOOLEAN', booleanValue: false, passed: false },
      {
        name: 't: Label',
        measurementType: 'TEST_MEASUREMENT_TYPE_STRING',
        stringValue: 'a < b & c',
        stringBounds: { expectedValue: 'a < b & c' },
        numericBounds: null,
        passed: true,
        description: 'EQ "a < b & c"',
      },
    ]);
  });

  it('handles limit pairs, failing tests, error clusters and unknown outcomes', async () => {
    const pair = (lo: string, hi: string, op = 'AND', cmp = ['GE', 'LT']) =>
      `<c:LimitPair operator="${op}"><c:Limit comparator="${cmp[0]}"><c:Datum value="${lo}" xsi:type="ts:TS_double" nonStandardUnit="V"/></c:Limit>` +
      `<c:Limit comparator="${cmp[1]}"><c:Datum value="${hi}" xsi:type="ts:TS_double" nonStandardUnit="V"/></c:Limit></c:LimitPair>`;
    const errorAction =
      `<tr:SessionAction ID="5" name="Call VI" startDateTime="2025-01-01T00:00:03.000" endDateTime="2025-01-01T00:00:04.000">` +
      `<tr:Data><c:Collection><c:Item name="error out [Out]"><c:Collection xsi:type="ts:TS_Collection">` +
      `<c:Item name="Code"><c:Datum value="-1074" xsi:type="ts:TS_double"/></c:Item>` +
      `<c:Item name="Msg"><c:Datum xsi:type="ts:TS_string"><c:Value>VISA timeout</c:Value></c:Datum></c:Item>` +
      `<c:Item name="Occurred"><c:Datum value="true" xsi:type="ts:TS_boolean"/></c:Item>` +
      `</c:Collection></c:Item></c:Collection></tr:Data>` +
      `<tr:ActionOutcome value="Errored"/></tr:SessionAction>\n` +
      `<tr:SessionAction ID="6" name="odd" startDateTime="2025-01-01T00:00:03.000" endDateTime="2025-01-01T00:00:04.000">` +
      `<tr:ActionOutcome value="UserDefined" qualifier="Flaky"/></tr:SessionAction>\n` +
      `<tr:SessionAction ID="7" name="none" startDateTime="2025-01-01T00:00:03.000" endDateTime="2025-01-01T00:00:04.000"/>\n`;
    const r = await parseText(
      doc(
        numericTest('in range', '1.5', 'Passed', pair('1', '2')) +
          numericTest('too high', '2.5', 'Failed', pair('1', '2')) +
          numericTest('outside', '1.5', 'Failed', pair('0', '3', 'OR', ['LT', 'GT'])) +
          errorAction,
        {
          uut:
            `<tr:UUT><c:Definition><c:Extension><ts:TSCollection><c:Item name="AdditionalData"><c:Collection>` +
            `<c:Item name="Temp"><c:Datum value="21.5" xsi:type="ts:TS_double"/></c:Item>` +
            `<c:Item name="Golden"><c:Datum value="true" xsi:type="ts:TS_boolean"/></c:Item>` +
            `<c:Item name="uuid"><c:Datum xsi:type="ts:TS_string"><c:Value>dup</c:Value></c:Datum></c:Item>` +
            `</c:Collection></c:Item></ts:TSCollection></c:Extension></c:Definition></tr:UUT>`,
        },
      ),
      'utf8',
    );
    expect(r.measurements.map((m) => [m.name, m.numericBounds, m.passed, m.unit, m.description])).toEqual([
      ['in range', { min: 1, max: 2 }, true, 'V', 'GE 1 V AND LT 2 V'],
      ['too high', { min: 1, max: 2 }, false, 'V', 'GE 1 V AND LT 2 V'],
      ['outside', null, false, 'V', 'LT 0 V OR GT 3 V'],
    ]);
    const byName = new Map(r.steps.map((s) => [s.name, s]));
    expect(byName.get('Call VI')).toMatchObject({
      status: 'TEST_STATUS_ERROR',
      errorInfo: { errorCode: -1074, errorMessage: 'VISA timeout' },
    });
    expect(byName.get('odd')?.status).toBe('TEST_STATUS_UNSPECIFIED');
    expect(meta(byName.get('odd') as ParsedStep, 'outcome')).toBe('UserDefined/Flaky');
    expect(byName.get('none')?.status).toBe('TEST_STATUS_UNSPECIFIED');
    expect(r.report?.serialNumber).toBe('');
    expect(r.report?.metadata).toEqual([
      { key: 'uuid', stringValue: 'u-1' },
      { key: 'Temp', numberValue: 21.5 },
      { key: 'Golden', booleanValue: true },
    ]);
  });

  it('resolves parents by key when an outcome follows the child steps', async () => {
    const text = doc(
      `<tr:TestGroup name="g" startDateTime="2025-01-01T00:00:01" endDateTime="2025-01-01T00:00:02">` +
        `<tr:SessionAction name="a" startDateTime="2025-01-01T00:00:01" endDateTime="2025-01-01T00:00:02"><tr:ActionOutcome value="Done"/></tr:SessionAction>` +
        `<tr:Outcome value="Passed"/></tr:TestGroup>`,
    );
    const r = await parseText(text, 'utf8');
    expect(r.order).toEqual(['s:0', 's:2', 's:1', 'r']);
    expect(r.steps.find((s) => s.key === 2)).toMatchObject({ name: 'a', parentKey: 1, stepPath: '1.1.1' });
    expect(r.steps.find((s) => s.key === 1)).toMatchObject({ name: 'g', parentKey: 0, status: 'TEST_STATUS_PASSED' });
  });

  it('parses timestamps as UTC microseconds', () => {
    expect(parseAtmlTimestamp('2025-09-10T11:25:07.560')).toBe(Date.UTC(2025, 8, 10, 11, 25, 7, 560) * 1000);
    expect(parseAtmlTimestamp('2024-02-29T00:00:00-05:30')).toBe(Date.UTC(2024, 1, 29, 5, 30) * 1000);
    expect(parseAtmlTimestamp('2025-02-29T00:00:00')).toBeNull();
    expect(parseAtmlTimestamp('2025-09-10 11:25:07')).toBeNull();
    expect(parseAtmlTimestamp('')).toBeNull();
  });
});

describe('parseAtml errors', () => {
  it('rejects empty input', async () => {
    await expectParseError(new Uint8Array(0), /^empty input/);
  });

  it('rejects garbage bytes', async () => {
    const random = new Uint8Array(4096);
    let x = 12345;
    for (let i = 0; i < random.length; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      random[i] = x >> 16;
    }
    await expectParseError(random, /^not well-formed XML: /);
    await expectParseError('this is not xml at all', /^not well-formed XML: .*text data outside of root node/);
    await expectParseError(
      `<trc:TestResultsCollection ${NS}><a></trc:TestResultsCollection>`,
      /^not well-formed XML: .*unexpected close tag/,
    );
    await expectParseError(
      `<trc:TestResultsCollection ${NS}><x:a/></trc:TestResultsCollection>`,
      /^not well-formed XML: .*unbound namespace prefix/,
    );
  });

  it('rejects well-formed XML that is not ATML', async () => {
    const e = await expectParseError(
      '<?xml version="1.0"?><project><name>x</name></project>',
      /^not an ATML test results document: root element is <project> \(no namespace\)/,
    );
    expect(e.message).not.toMatch(/^not well-formed/);
    await expectParseError(
      '<TestResultsCollection xmlns="urn:example:other"><TestResults/></TestResultsCollection>',
      /^not an ATML test results document: root element is <TestResultsCollection> in namespace "urn:example:other"/,
    );
  });

  it('rejects a truncated file', async () => {
    await expectParseError(FIXTURE_TEXT.slice(0, Math.floor(FIXTURE_TEXT.length / 2)), /^not well-formed XML: .*unclosed tag/i);
    await expectParseError(FIXTURE_TEXT.slice(0, FIXTURE_TEXT.length - 40), /^not well-formed XML: /);
  });

  it('rejects a document without a ResultSet', async () => {
    const start = FIXTURE_TEXT.indexOf('\t<tr:ResultSet');
    const end = FIXTURE_TEXT.indexOf('</tr:ResultSet>') + '</tr:ResultSet>'.length;
    await expectParseError(FIXTURE_TEXT.slice(0, start) + FIXTURE_TEXT.slice(end), /^missing tr:ResultSet/);
    await expectParseError(`<trc:TestResultsCollection ${NS}/>`, /^missing tr:ResultSet/);
  });

  it('rejects bad or missing timestamps, naming the attribute and line', async () => {
    const lineOf = (needle: string): number => FIXTURE_TEXT.slice(0, FIXTURE_TEXT.indexOf(needle)).split('\n').length;
    expect(lineOf('<tr:ResultSet')).toBe(7);
    await expectParseError(
      FIXTURE_TEXT.replace('startDateTime = "2025-09-10T11:25:07.560"', 'startDateTime = "2025-13-10T11:25:07.560"'),
      /^invalid startDateTime "2025-13-10T11:25:07.560" on <tr:ResultSet> at line 7$/,
    );
    const line = lineOf('ID = "942"');
    await expectParseError(
      FIXTURE_TEXT.replace('endDateTime = "2025-09-10T11:25:52.026"', ''),
      new RegExp(`^missing endDateTime on <tr:SessionAction> at line ${line}$`),
    );
  });

  it('rejects invalid measurement values and unsupported encodings', async () => {
    await expectParseError(
      doc(numericTest('t', 'abc', 'Passed', '')),
      /^invalid numeric value "abc" in TestResult "Numeric" of step "t" at line \d+$/,
    );
    await expectParseError(doc('', { decl: '<?xml version="1.0" encoding="x-klingon"?>' }), /^unsupported character encoding "x-klingon"/);
    await expectParseError(
      new Uint8Array([...bytesOf(doc('').slice(0, 60)), 0xff, 0xfe, 0xfd]),
      /^not well-formed XML: byte sequence is not valid utf-8/,
    );
  });

  it('enforces maxBytes', async () => {
    const { sink } = collector();
    await expect(parseAtml(chunks(new Uint8Array(FIXTURE_BYTES), 4096), sink, { maxBytes: 10_000 })).rejects.toThrow(
      /^input exceeds the 10000-byte limit$/,
    );
  });

  it('lets sink errors through unchanged', async () => {
    class Boom extends Error {}
    const sink: AtmlSink = {
      report: () => undefined,
      measurement: () => undefined,
      step: () => {
        throw new Boom('sink failed');
      },
    };
    await expect(parseAtml(chunks(new Uint8Array(FIXTURE_BYTES), 4096), sink)).rejects.toBeInstanceOf(Boom);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('parseAtml on a large input', () => {
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  // Distinct, valid timestamps without going through Date for every element.
  const ts = (i: number): string =>
    `2025-01-01T${pad(Math.floor(i / 3_600_000) % 24)}:${pad(Math.floor(i / 60_000) % 60)}:${pad(Math.floor(i / 1000) % 60)}.${pad(i % 1000, 3)}`;

  const props = (type: string, indent: string): string =>
    `${indent}<tr:Extension>\r\n${indent}\t<ts:TSStepProperties>\r\n${indent}\t\t<ts:StepType>${type}</ts:StepType>\r\n` +
    `${indent}\t\t<ts:StepGroup>Main</ts:StepGroup>\r\n${indent}\t\t<ts:BlockLevel value='0'/>\r\n${indent}\t\t<ts:Index value='2'/>\r\n` +
    `${indent}\t\t<ts:TotalTime value='3.68733'/>\r\n${indent}\t</ts:TSStepProperties>\r\n${indent}</tr:Extension>\r\n`;
  const action = (id: number, name: string, type: string, data = ''): string =>
    `\t\t\t<tr:SessionAction ID = "${id}" name = "${name}" startDateTime = "${ts(id)}"  endDateTime = "${ts(id + 1)}"  testReferenceID="ID#:a${id % 97}">\r\n` +
    `${data}${props(type, '\t\t\t\t')}\t\t\t\t<tr:ActionOutcome value = "Done" />\r\n\t\t\t</tr:SessionAction>\r\n`;
  const test = (id: number, value: string): string =>
    `\t\t\t<tr:Test ID = "${id}" name = "Leak ${id}" startDateTime = "${ts(id)}"  endDateTime = "${ts(id + 1)}"  testReferenceID="ID#:t${id % 13}">\r\n` +
    `${props('NumericLimitTest', '\t\t\t\t')}\t\t\t\t<tr:Outcome value = "Passed" />\r\n` +
    `\t\t\t\t<tr:TestResult ID = "tr-${id}" name = "Numeric">\r\n\t\t\t\t\t<tr:TestData>\r\n` +
    `\t\t\t\t\t\t<c:Datum value = "${value}" xsi:type="ts:TS_double" nonStandardUnit="PSIA" flags = "0x2400"/>\r\n` +
    `\t\t\t\t\t</tr:TestData>\r\n\t\t\t\t\t<tr:TestLimits>\r\n\t\t\t\t\t\t<tr:Limits>\r\n\t\t\t\t\t\t\t<c:SingleLimit comparator = "LE">\r\n` +
    `\t\t\t\t\t\t\t\t<c:Datum nonStandardUnit = "PSIA" value = "20" xsi:type="ts:TS_double" flags = "0x0000"/>\r\n` +
    `\t\t\t\t\t\t\t</c:SingleLimit>\r\n\t\t\t\t\t\t</tr:Limits>\r\n\t\t\t\t\t</tr:TestLimits>\r\n\t\t\t\t</tr:TestResult>\r\n\t\t\t</tr:Test>\r\n`;
  const reportText =
    '\t\t\t\t<tr:Data>\r\n\t\t\t\t\t<c:Collection>\r\n\t\t\t\t\t\t<c:Item name = "ReportText">\r\n' +
    '\t\t\t\t\t\t\t<c:Datum xsi:type="ts:TS_string" flags = "0x0000">\r\n' +
    '\t\t\t\t\t\t\t\t<c:Value><![CDATA[Locals.Count < 10 && !Locals.Done]]></c:Value>\r\n' +
    '\t\t\t\t\t\t\t</c:Datum>\r\n\t\t\t\t\t\t</c:Item>\r\n\t\t\t\t\t</c:Collection>\r\n\t\t\t\t</tr:Data>\r\n';
  const STEPS_PER_GROUP = 7; // the TestGroup, 4 SessionActions and 2 Tests of group()
  const group = (g: number): string => {
    const b = g * 10;
    return (
      `\t\t<tr:TestGroup name="seq.seq#Group ${g}" ID="${b}" callerName='Call ${g}' testReferenceID="ID#:g${g % 7}" startDateTime = "${ts(b)}"  endDateTime = "${ts(b + 9)}" >\r\n` +
      `${props('SequenceCall', '\t\t\t')}\t\t\t<tr:Outcome value="Passed" />\r\n` +
      action(b + 1, 'Open valve', 'Action') +
      action(b + 2, 'While', 'NI_Flow_While', reportText) +
      test(b + 3, `${g % 20}.${pad(g % 100)}`) +
      action(b + 4, 'Wait', 'NI_Wait') +
      test(b + 5, '1.5') +
      action(b + 6, 'End', 'NI_Flow_End') +
      `\t\t</tr:TestGroup>\r\n`
    );
  };
  const HEAD =
    `<?xml version="1.0" encoding="iso-8859-1" ?>\r\n<trc:TestResultsCollection ${NS}>\r\n<trc:TestResults uuid="big">\r\n` +
    `\t<tr:ResultSet ID="1" name="seq.seq#Main" startDateTime="2025-01-01T00:00:00.000" endDateTime="2025-01-02T00:00:00.000">\r\n` +
    `\t\t<tr:Outcome value="Passed" />\r\n`;
  const TAIL =
    '\t</tr:ResultSet>\r\n\t<tr:UUT>\r\n\t\t<c:SerialNumber>SN-BIG</c:SerialNumber>\r\n\t</tr:UUT>\r\n</trc:TestResults>\r\n</trc:TestResultsCollection>\r\n';

  it('streams a ≥ 50 MB report in bounded memory', async () => {
    const globalGc = (globalThis as { gc?: () => void }).gc;
    const gc: () => void =
      globalGc ??
      (() => {
        setFlagsFromString('--expose-gc');
        return runInNewContext('gc') as () => void;
      })();
    const TARGET = 50 * 1024 * 1024;
    const CHUNK = 64 * 1024;
    let bytes = 0;
    let groups = 0;
    const heapSamples: number[] = [];

    async function* source(): AsyncGenerator<Uint8Array> {
      let buf = HEAD;
      let nextSample = 0;
      while (bytes + buf.length < TARGET) {
        buf += group(groups++);
        if (buf.length >= CHUNK) {
          const out = bytesOf(buf);
          bytes += out.length;
          buf = '';
          yield out;
          // Forced GC before sampling measures what the parser retains, not transient garbage.
          if (bytes >= nextSample) {
            gc();
            heapSamples.push(process.memoryUsage().heapUsed);
            nextSample += 5 * 1024 * 1024;
          }
        }
      }
      const out = bytesOf(buf + TAIL);
      bytes += out.length;
      yield out;
    }

    let steps = 0;
    let measurements = 0;
    let flow = 0;
    let report: ParsedReport | null = null;
    const sink: AtmlSink = {
      step: (s) => {
        steps++;
        if (s.stepType === 'TEST_STEP_TYPE_FLOW_CONTROL') flow++;
      },
      measurement: () => {
        measurements++;
      },
      report: (r) => {
        report = r;
      },
    };

    gc();
    const baseline = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const result = await parseAtml(source(), sink);
    const seconds = (performance.now() - t0) / 1000;
    gc();
    const after = process.memoryUsage().heapUsed;
    const peakGrowth = Math.max(...heapSamples, after) - baseline;

    expect(bytes).toBeGreaterThanOrEqual(TARGET);
    expect(groups).toBeGreaterThan(10_000);
    expect(result).toEqual({ steps: 1 + groups * STEPS_PER_GROUP, measurements: groups * 2 });
    expect(steps).toBe(result.steps);
    expect(measurements).toBe(result.measurements);
    expect(flow).toBe(groups * 2);
    expect((report as ParsedReport | null)?.serialNumber).toBe('SN-BIG');
    expect(heapSamples.length).toBeGreaterThanOrEqual(10);
    expect(peakGrowth).toBeLessThan(25 * 1024 * 1024);
    expect(seconds).toBeLessThan(15);
    console.info(
      `atml large input: ${(bytes / 1048576).toFixed(1)} MB, ${result.steps} steps, ${result.measurements} measurements, ` +
        `${seconds.toFixed(2)} s, peak retained heap growth ${(peakGrowth / 1048576).toFixed(2)} MB`,
    );
  });
});
