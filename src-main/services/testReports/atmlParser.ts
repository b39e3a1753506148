// Streaming parser for NI TestStand ATML (IEEE 1636.1 Test Results) reports.
//
// Mapping (of TestStand's ATML Test Results layout, as the sample
// tests/fixtures/teststand/demo_test_report.xml shows it):
// - Every tr:ResultSet / tr:TestGroup / tr:Test / tr:SessionAction is one step. Step paths number step
//   siblings in document order: the ResultSet is "1", its children "1.1", "1.2", ...
// - One measurement per tr:TestResult that holds a scalar c:Datum. Its name is the owning Test's name,
//   or "<Test name>: <result name>" unless the result is TestStand's generic "Numeric" (so a
//   PassFailTest gives "Check Pressure Rise: Passed?" and "Check Pressure Rise: Failed Value").
// - Timestamps without a zone designator are read as UTC; an explicit `Z` or offset is honoured.
// - Step metadata keys: step_type, step_group (ts:TSStepProperties), test_reference_id, result_id (@ID),
//   loop counters as numbers (num_loops, num_passed, num_failed, ending_loop_index, loop_index) and, for
//   outcomes that map to TEST_STATUS_UNSPECIFIED, the raw text as `outcome`. Report metadata: uuid,
//   model_name, then the UUT AdditionalData items under their own names (typed by xsi:type).
//
// Emission order and keys:
// - `ParsedStep.key` is the step's index in document (pre-)order, 0 for the ResultSet, assigned when its
//   start tag is read, so a parent's key is always known before any of its children are emitted.
// - A step is emitted as soon as its outcome is known and its first child step or tr:TestResult starts
//   (TestStand always writes tr:Outcome before those), otherwise at its end tag. For TestStand output this
//   means steps arrive in key order, parents before children, and each Test's measurements right after
//   the Test. If a document puts an outcome after the child steps, the parent arrives after its
//   children; consumers should resolve parents by key, not rely on arrival order.
// - `sink.report()` is called last: the UUT, station and operator facts follow the ResultSet.
// - On any error the sink may already have received some steps; callers should import in a transaction.
//
// Memory: only the open-element context stack, the open steps (at most the nesting depth) and the
// current TestResult are held; nothing else of the document is retained.

import { createReadStream } from 'node:fs';
import { SaxesParser, type SaxesTagNS } from 'saxes';

export type TestStatusName =
  | 'TEST_STATUS_UNSPECIFIED'
  | 'TEST_STATUS_DRAFT'
  | 'TEST_STATUS_PASSED'
  | 'TEST_STATUS_FAILED'
  | 'TEST_STATUS_ABORTED'
  | 'TEST_STATUS_ERROR'
  | 'TEST_STATUS_IN_PROGRESS'
  | 'TEST_STATUS_SKIPPED';

export interface ParsedMetadata {
  key: string;
  stringValue?: string;
  numberValue?: number;
  booleanValue?: boolean;
}

export interface ParsedReport {
  name: string;
  testCase: string;
  testSystemName: string;
  serialNumber: string;
  partNumber: string;
  systemOperator: string;
  /** Epoch microseconds. */
  startTime: number;
  /** Epoch microseconds. */
  endTime: number;
  status: TestStatusName;
  metadata: ParsedMetadata[];
}

export type ParsedStepType = 'TEST_STEP_TYPE_SEQUENCE' | 'TEST_STEP_TYPE_GROUP' | 'TEST_STEP_TYPE_ACTION' | 'TEST_STEP_TYPE_FLOW_CONTROL';

export interface ParsedStep {
  /** Index of the step in document order (0 = ResultSet). */
  key: number;
  parentKey: number | null;
  name: string;
  description: string;
  stepType: ParsedStepType;
  stepPath: string;
  status: TestStatusName;
  /** Epoch microseconds. */
  startTime: number;
  /** Epoch microseconds. */
  endTime: number;
  errorInfo: { errorCode: number; errorMessage: string } | null;
  metadata: ParsedMetadata[];
}

export type ParsedMeasurementType = 'TEST_MEASUREMENT_TYPE_DOUBLE' | 'TEST_MEASUREMENT_TYPE_STRING' | 'TEST_MEASUREMENT_TYPE_BOOLEAN';

export interface ParsedMeasurement {
  stepKey: number;
  name: string;
  measurementType: ParsedMeasurementType;
  numericValue?: number;
  stringValue?: string;
  booleanValue?: boolean;
  /** Abbreviated unit name (c:Datum/@nonStandardUnit or @unit), null when absent. */
  unit: string | null;
  numericBounds: { min?: number; max?: number } | null;
  stringBounds: { expectedValue: string } | null;
  passed: boolean;
  /** Epoch microseconds: the owning Test's end time (ATML has no per-result time). */
  timestamp: number;
  description: string;
  metadata: ParsedMetadata[];
}

export interface AtmlSink {
  report(r: ParsedReport): void;
  step(s: ParsedStep): void;
  measurement(m: ParsedMeasurement): void;
}

/** Deepest step nesting an import takes (INVALID_ARGUMENT beyond). */
export const MAX_STEP_DEPTH = 128;
/** Longest text of one step field (name, caller name, error message, outcome) an import takes. */
export const MAX_FIELD_CHARS = 64 * 1024;

export class AtmlParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AtmlParseError';
  }
}

export interface ParseAtmlOptions {
  /** Reject inputs larger than this many bytes (characters for string chunks). */
  maxBytes?: number;
}

export interface ParseAtmlResult {
  steps: number;
  measurements: number;
}

// ---------------------------------------------------------------------------------------------------
// Namespaces: matched by URI (any edition year), never by the prefixes a file happens to use.

const URI_XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const URI_XSD = 'http://www.w3.org/2001/XMLSchema';

const NS_OTHER = 0;
const NS_TRC = 1;
const NS_TR = 2;
const NS_C = 3;
const NS_TS = 4;
const NS_XSD = 5;

function classifyUri(uri: string): number {
  if (/^urn:IEEE-1636\.1:\d{4}(?::\d{2})?:TestResultsCollection$/.test(uri)) return NS_TRC;
  if (/^urn:IEEE-1636\.1:\d{4}(?::\d{2})?:TestResults$/.test(uri)) return NS_TR;
  if (/^urn:IEEE-1671:\d{4}(?::\d{2})?:Common$/.test(uri)) return NS_C;
  // NI's extension namespace has no URI scheme in TestStand output; accept one anyway, any version.
  if (/^(?:https?:\/\/)?www\.ni\.com\/TestStand\/ATMLTestResults\/[\d.]+\/?$/i.test(uri)) return NS_TS;
  if (uri === URI_XSD) return NS_XSD;
  return NS_OTHER;
}

// ---------------------------------------------------------------------------------------------------
// Element contexts. Each open element gets one; a child's context is decided from its parent's, so the
// parser never needs to look further up the tree. C_IGNORE subtrees cost nothing beyond the push/pop.

const C_IGNORE = 0;
const C_COLLECTION = 1;
const C_TEST_RESULTS = 2;
const C_PERSONNEL = 3;
const C_STEP = 4;
const C_STEP_EXTENSION = 5;
const C_TS_STEP_PROPS = 6;
const C_TS_LOOPING = 7;
const C_STEP_DATA = 8;
const C_STEP_DATA_COLLECTION = 9;
const C_ERROR_ITEM = 10;
const C_ERROR_COLLECTION = 11;
const C_ERROR_FIELD = 12;
const C_DATUM = 13;
const C_CAPTURE = 14;
const C_TEST_RESULT = 15;
const C_TEST_DATA = 16;
const C_TEST_LIMITS = 17;
const C_LIMITS = 18;
const C_LIMIT_PAIR = 19;
const C_LIMIT_COND = 20;
const C_TEST_PROGRAM = 21;
const C_TEST_STATION = 22;
const C_UUT = 23;
const C_UUT_DEFINITION = 24;
const C_UUT_IDENTIFICATION = 25;
const C_UUT_ID_NUMBERS = 26;
const C_UUT_EXTENSION = 27;
const C_UUT_TS_COLLECTION = 28;
const C_UUT_ADDITIONAL = 29;
const C_UUT_ADDITIONAL_COLLECTION = 30;
const C_UUT_ADDITIONAL_ITEM = 31;

// What a captured text node is for.
const CAP_STEP_TYPE = 1;
const CAP_STEP_GROUP = 2;
const CAP_PROGRAM_SERIAL = 3;
const CAP_STATION_SERIAL = 4;
const CAP_UUT_SERIAL = 5;
const CAP_MODEL_NAME = 6;
const CAP_DATUM_VALUE = 7;

// Where a finished c:Datum goes.
const DT_ERROR_FIELD = 1;
const DT_ADDITIONAL = 2;
const DT_MEASURED = 3;
const DT_LIMIT = 4;

type ValueKind = 'double' | 'string' | 'boolean' | 'other';

interface Datum {
  kind: ValueKind;
  /** @value as written. */
  value: string | undefined;
  /** c:Value text, when present. */
  text: string | undefined;
  unit: string | null;
  line: number;
}

interface LimitCondition {
  comparator: string;
  datum: Datum | null;
}

interface LimitGroup {
  operator: 'AND' | 'OR';
  conditions: LimitCondition[];
}

type StepElement = 'ResultSet' | 'TestGroup' | 'Test' | 'SessionAction';

interface StepFrame {
  key: number;
  parentKey: number | null;
  path: string;
  childCount: number;
  element: StepElement;
  name: string;
  callerName: string;
  resultId: string | undefined;
  testReferenceId: string | undefined;
  startTime: number;
  endTime: number;
  tsStepType: string | undefined;
  tsStepGroup: string | undefined;
  loop: ParsedMetadata[];
  outcomeSeen: boolean;
  status: TestStatusName;
  rawOutcome: string | undefined;
  errorCode: number | undefined;
  errorMessage: string | undefined;
  errorOccurred: boolean | undefined;
  emitted: boolean;
  /** Measurements finished before the step could be emitted (outcome not yet known). */
  pending: TestResultFrame[] | null;
}

interface TestResultFrame {
  step: StepFrame;
  name: string;
  resultId: string | undefined;
  measured: Datum | null;
  limits: LimitGroup[];
  ownStatus: TestStatusName | undefined;
}

interface DatumTarget {
  kind: number;
  key: string;
  condition: LimitCondition | null;
}

const OUTCOME_VOCABULARY: Record<string, TestStatusName> = {
  passed: 'TEST_STATUS_PASSED',
  // "Done" means the step completed without a verdict; Sift has no DONE status.
  done: 'TEST_STATUS_PASSED',
  failed: 'TEST_STATUS_FAILED',
  error: 'TEST_STATUS_ERROR',
  errored: 'TEST_STATUS_ERROR',
  aborted: 'TEST_STATUS_ABORTED',
  terminated: 'TEST_STATUS_ABORTED',
  running: 'TEST_STATUS_IN_PROGRESS',
  looping: 'TEST_STATUS_IN_PROGRESS',
  skipped: 'TEST_STATUS_SKIPPED',
};

function statusOf(value: string, qualifier: string | undefined): TestStatusName {
  const v = value.trim().toLowerCase();
  // ATML has no "Skipped" etc.; TestStand writes them as UserDefined + qualifier.
  const word = v === 'userdefined' ? (qualifier ?? '').trim().toLowerCase() : v;
  return OUTCOME_VOCABULARY[word] ?? 'TEST_STATUS_UNSPECIFIED';
}

function attr(tag: SaxesTagNS, name: string): string | undefined {
  return tag.attributes[name]?.value;
}

function describeElement(tag: SaxesTagNS): string {
  return tag.uri === '' ? `<${tag.name}> (no namespace)` : `<${tag.name}> in namespace "${tag.uri}"`;
}

function camelToSnake(s: string): string {
  return s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

const TIMESTAMP_RE = /^(-?\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?$/;

/** xs:dateTime to epoch microseconds; a missing zone means UTC. Returns null when invalid. */
export function parseAtmlTimestamp(text: string): number | null {
  const m = TIMESTAMP_RE.exec(text.trim());
  if (m === null) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const daysInMonth = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (day > daysInMonth) return null;
  // setUTCFullYear avoids Date.UTC's 0..99 -> 1900s remapping.
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  let micros = d.getTime() * 1000;
  const frac = m[7];
  if (frac !== undefined) micros += Number((frac + '000000').slice(0, 6));
  const zone = m[8];
  if (zone !== undefined && zone !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 14 || om > 59) return null;
    micros -= sign * (oh * 60 + om) * 60_000_000;
  }
  return Number.isFinite(micros) ? micros : null;
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function parseNumber(text: string): number | null {
  const t = text.trim();
  if (t === '') return null;
  const n = Number(t);
  if (!Number.isNaN(n)) return n;
  // TestStand spells non-finite doubles as NaN / Inf / -Inf.
  const l = t.toLowerCase();
  if (l === 'nan') return Number.NaN;
  if (l === 'inf' || l === '+inf' || l === 'infinity' || l === '+infinity') return Number.POSITIVE_INFINITY;
  if (l === '-inf' || l === '-infinity') return Number.NEGATIVE_INFINITY;
  return null;
}

function parseBoolean(text: string): boolean | null {
  const l = text.trim().toLowerCase();
  if (l === 'true' || l === '1') return true;
  if (l === 'false' || l === '0') return false;
  return null;
}

const XSD_NUMERIC_TYPES = new Set([
  'double',
  'float',
  'decimal',
  'integer',
  'int',
  'long',
  'short',
  'byte',
  'unsignedLong',
  'unsignedInt',
  'unsignedShort',
  'unsignedByte',
  'positiveInteger',
  'negativeInteger',
  'nonPositiveInteger',
  'nonNegativeInteger',
]);

// ---------------------------------------------------------------------------------------------------

class XmlSyntaxError extends Error {}

class AtmlStreamParser {
  private readonly xml: SaxesParser<{ xmlns: true; position: true }>;
  private readonly ctx: number[] = [];
  private readonly steps: StepFrame[] = [];
  private readonly nsCache = new Map<string, number>();
  private nextKey = 0;
  private emittedSteps = 0;
  private emittedMeasurements = 0;

  private testResultsCount = 0;
  private resultSet: StepFrame | null = null;
  private uuid: string | undefined;
  private operator: string | undefined;
  private programSerial: string | undefined;
  private stationSerial: string | undefined;
  private uutSerial: string | undefined;
  private modelName: string | undefined;
  private partNumber: string | undefined;
  private readonly additional: ParsedMetadata[] = [];

  private captureKind = 0;
  private captureText = '';
  private datum: Datum | null = null;
  private datumTarget: DatumTarget | null = null;
  private errorField = '';
  private additionalKey = '';
  private testResult: TestResultFrame | null = null;
  private limitCondition: LimitCondition | null = null;

  private readonly onText = (t: string): void => {
    this.captureText += t;
  };

  constructor(private readonly sink: AtmlSink) {
    this.xml = new SaxesParser({ xmlns: true, position: true });
    // Route saxes' own failures through a distinct type so they can be told apart from errors thrown
    // by our handlers or by the sink, which surface through the same write() call.
    this.xml.on('error', (e) => {
      throw new XmlSyntaxError(e.message);
    });
    this.xml.on('opentag', (tag) => this.open(tag));
    this.xml.on('closetag', () => this.close());
  }

  write(text: string): void {
    try {
      this.xml.write(text);
    } catch (e) {
      throw translate(e);
    }
  }

  finish(): ParseAtmlResult {
    try {
      this.xml.close();
    } catch (e) {
      throw translate(e);
    }
    const rs = this.resultSet;
    if (rs === null) {
      throw new AtmlParseError('missing tr:ResultSet: the test results contain no ResultSet element');
    }
    const metadata: ParsedMetadata[] = [];
    const seen = new Set<string>();
    const add = (m: ParsedMetadata): void => {
      if (seen.has(m.key)) return;
      seen.add(m.key);
      metadata.push(m);
    };
    if (this.uuid !== undefined) add({ key: 'uuid', stringValue: this.uuid });
    if (this.modelName !== undefined) add({ key: 'model_name', stringValue: this.modelName });
    for (const m of this.additional) add(m);
    const station = nonEmpty(this.stationSerial) ?? nonEmpty(this.programSerial) ?? '';
    this.sink.report({
      name: rs.name,
      testCase: rs.name,
      testSystemName: station,
      serialNumber: this.uutSerial ?? '',
      partNumber: this.partNumber ?? '',
      systemOperator: this.operator ?? '',
      startTime: rs.startTime,
      endTime: rs.endTime,
      status: rs.status,
      metadata,
    });
    return { steps: this.emittedSteps, measurements: this.emittedMeasurements };
  }

  private ns(uri: string): number {
    let k = this.nsCache.get(uri);
    if (k === undefined) {
      k = classifyUri(uri);
      this.nsCache.set(uri, k);
    }
    return k;
  }

  private fail(message: string): never {
    throw new AtmlParseError(`${message} at line ${this.xml.line}`);
  }

  // -------------------------------------------------------------------------------------------------

  private open(tag: SaxesTagNS): void {
    const ctx = this.ctx;
    if (ctx.length === 0) {
      ctx.push(this.openRoot(tag));
      return;
    }
    const parent = ctx[ctx.length - 1];
    if (parent === C_IGNORE || parent === C_CAPTURE) {
      ctx.push(C_IGNORE);
      return;
    }
    const ns = this.ns(tag.uri);
    const local = tag.local;
    let c = C_IGNORE;
    switch (parent) {
      case C_COLLECTION:
        if ((ns === NS_TRC || ns === NS_TR) && local === 'TestResults') c = this.openTestResults(tag);
        break;
      case C_TEST_RESULTS:
        if (ns === NS_TR) {
          if (local === 'ResultSet') c = this.openStep(tag, 'ResultSet');
          else if (local === 'Personnel') c = C_PERSONNEL;
          else if (local === 'TestProgram') c = C_TEST_PROGRAM;
          else if (local === 'TestStation') c = C_TEST_STATION;
          else if (local === 'UUT') c = C_UUT;
        }
        break;
      case C_PERSONNEL:
        if (ns === NS_TR && local === 'SystemOperator' && this.operator === undefined) {
          this.operator = attr(tag, 'name') ?? attr(tag, 'ID');
        }
        break;
      case C_STEP:
        c = this.openInStep(tag, ns, local);
        break;
      case C_STEP_EXTENSION:
        if (ns === NS_TS && local === 'TSStepProperties') c = C_TS_STEP_PROPS;
        break;
      case C_TS_STEP_PROPS:
        if (ns === NS_TS) {
          if (local === 'StepType') c = this.startCapture(CAP_STEP_TYPE);
          else if (local === 'StepGroup') c = this.startCapture(CAP_STEP_GROUP);
          else if (local === 'LoopingProperties') c = C_TS_LOOPING;
        }
        break;
      case C_TS_LOOPING: {
        const v = attr(tag, 'value');
        const n = v === undefined ? null : parseNumber(v);
        if (ns === NS_TS && n !== null) this.topStep().loop.push({ key: camelToSnake(local), numberValue: n });
        break;
      }
      case C_STEP_DATA:
        if (ns === NS_C && local === 'Collection') c = C_STEP_DATA_COLLECTION;
        break;
      case C_STEP_DATA_COLLECTION:
        if (ns === NS_C && local === 'Item' && isErrorItemName(attr(tag, 'name'))) c = C_ERROR_ITEM;
        break;
      case C_ERROR_ITEM:
        if (ns === NS_C && local === 'Collection') c = C_ERROR_COLLECTION;
        break;
      case C_ERROR_COLLECTION:
        if (ns === NS_C && local === 'Item') {
          this.errorField = attr(tag, 'name') ?? '';
          c = C_ERROR_FIELD;
        }
        break;
      case C_ERROR_FIELD:
        if (ns === NS_C && local === 'Datum') c = this.startDatum(tag, { kind: DT_ERROR_FIELD, key: this.errorField, condition: null });
        break;
      case C_DATUM:
        if (ns === NS_C && local === 'Value') c = this.startCapture(CAP_DATUM_VALUE);
        break;
      case C_TEST_RESULT:
        if (ns === NS_TR) {
          if (local === 'TestData') c = C_TEST_DATA;
          else if (local === 'TestLimits') c = C_TEST_LIMITS;
          else if (local === 'Outcome' && this.testResult !== null) {
            this.testResult.ownStatus = statusOf(attr(tag, 'value') ?? '', attr(tag, 'qualifier'));
          }
        }
        break;
      case C_TEST_DATA:
        if (ns === NS_C && local === 'Datum' && this.testResult !== null && this.testResult.measured === null) {
          c = this.startDatum(tag, { kind: DT_MEASURED, key: '', condition: null });
        }
        break;
      case C_TEST_LIMITS:
        if (ns === NS_TR && local === 'Limits') c = C_LIMITS;
        break;
      case C_LIMITS:
        if (ns === NS_C && this.testResult !== null) {
          if (local === 'SingleLimit' || local === 'Expected') {
            const cond: LimitCondition = { comparator: (attr(tag, 'comparator') ?? '').trim().toUpperCase(), datum: null };
            this.testResult.limits.push({ operator: 'AND', conditions: [cond] });
            this.limitCondition = cond;
            c = C_LIMIT_COND;
          } else if (local === 'LimitPair') {
            const op = (attr(tag, 'operator') ?? 'AND').trim().toUpperCase() === 'OR' ? 'OR' : 'AND';
            this.testResult.limits.push({ operator: op, conditions: [] });
            c = C_LIMIT_PAIR;
          }
        }
        break;
      case C_LIMIT_PAIR:
        if (ns === NS_C && local === 'Limit' && this.testResult !== null) {
          const cond: LimitCondition = { comparator: (attr(tag, 'comparator') ?? '').trim().toUpperCase(), datum: null };
          this.testResult.limits[this.testResult.limits.length - 1].conditions.push(cond);
          this.limitCondition = cond;
          c = C_LIMIT_COND;
        }
        break;
      case C_LIMIT_COND:
        if (ns === NS_C && local === 'Datum' && this.limitCondition !== null && this.limitCondition.datum === null) {
          c = this.startDatum(tag, { kind: DT_LIMIT, key: '', condition: this.limitCondition });
        }
        break;
      case C_TEST_PROGRAM:
        if (ns === NS_C && local === 'SerialNumber') c = this.startCapture(CAP_PROGRAM_SERIAL);
        break;
      case C_TEST_STATION:
        if (ns === NS_C && local === 'SerialNumber') c = this.startCapture(CAP_STATION_SERIAL);
        break;
      case C_UUT:
        if (ns === NS_C) {
          if (local === 'SerialNumber') c = this.startCapture(CAP_UUT_SERIAL);
          else if (local === 'Definition') c = C_UUT_DEFINITION;
        }
        break;
      case C_UUT_DEFINITION:
        if (ns === NS_C) {
          if (local === 'Identification') c = C_UUT_IDENTIFICATION;
          else if (local === 'Extension') c = C_UUT_EXTENSION;
        }
        break;
      case C_UUT_IDENTIFICATION:
        if (ns === NS_C) {
          if (local === 'ModelName') c = this.startCapture(CAP_MODEL_NAME);
          else if (local === 'IdentificationNumbers') c = C_UUT_ID_NUMBERS;
        }
        break;
      case C_UUT_ID_NUMBERS:
        if (ns === NS_C && local === 'IdentificationNumber' && this.partNumber === undefined) {
          if ((attr(tag, 'type') ?? '').trim().toLowerCase() === 'part') this.partNumber = (attr(tag, 'number') ?? '').trim();
        }
        break;
      case C_UUT_EXTENSION:
        if (ns === NS_TS && local === 'TSCollection') c = C_UUT_TS_COLLECTION;
        break;
      case C_UUT_TS_COLLECTION:
        if (ns === NS_C && local === 'Item' && attr(tag, 'name') === 'AdditionalData') c = C_UUT_ADDITIONAL;
        break;
      case C_UUT_ADDITIONAL:
        if (ns === NS_C && local === 'Collection') c = C_UUT_ADDITIONAL_COLLECTION;
        break;
      case C_UUT_ADDITIONAL_COLLECTION:
        if (ns === NS_C && local === 'Item') {
          this.additionalKey = attr(tag, 'name') ?? '';
          c = C_UUT_ADDITIONAL_ITEM;
        }
        break;
      case C_UUT_ADDITIONAL_ITEM:
        // Nested collections and arrays have no single value to store; only scalars become metadata.
        if (ns === NS_C && local === 'Datum' && this.additionalKey !== '') {
          c = this.startDatum(tag, { kind: DT_ADDITIONAL, key: this.additionalKey, condition: null });
        }
        break;
      default:
        break;
    }
    ctx.push(c);
  }

  private close(): void {
    const c = this.ctx.pop();
    switch (c) {
      case C_STEP:
        this.closeStep();
        break;
      case C_CAPTURE:
        this.finishCapture();
        break;
      case C_DATUM:
        this.finishDatum();
        break;
      case C_TEST_RESULT:
        this.finishTestResult();
        break;
      case C_LIMIT_COND:
        this.limitCondition = null;
        break;
      default:
        break;
    }
  }

  // -------------------------------------------------------------------------------------------------

  private openRoot(tag: SaxesTagNS): number {
    const ns = this.ns(tag.uri);
    if (ns === NS_TRC && tag.local === 'TestResultsCollection') return C_COLLECTION;
    if (ns === NS_TR && tag.local === 'TestResults') return this.openTestResults(tag);
    throw new AtmlParseError(
      `not an ATML test results document: root element is ${describeElement(tag)}, expected TestResultsCollection or TestResults in an IEEE 1636.1 namespace`,
    );
  }

  private openTestResults(tag: SaxesTagNS): number {
    this.testResultsCount++;
    if (this.testResultsCount > 1) {
      this.fail('unsupported ATML document: more than one TestResults element in the collection');
    }
    this.uuid = attr(tag, 'uuid');
    return C_TEST_RESULTS;
  }

  private openInStep(tag: SaxesTagNS, ns: number, local: string): number {
    const step = this.topStep();
    if (ns === NS_TR) {
      switch (local) {
        case 'TestGroup':
        case 'Test':
        case 'SessionAction':
          return this.openStep(tag, local);
        case 'Extension':
          return C_STEP_EXTENSION;
        case 'Outcome':
        case 'ActionOutcome': {
          const value = attr(tag, 'value') ?? '';
          const qualifier = attr(tag, 'qualifier');
          step.outcomeSeen = true;
          step.status = statusOf(value, qualifier);
          if (step.status === 'TEST_STATUS_UNSPECIFIED') {
            step.rawOutcome = qualifier !== undefined && qualifier !== '' ? `${value}/${qualifier}` : value;
          }
          return C_IGNORE;
        }
        case 'Data':
          return C_STEP_DATA;
        case 'TestResult':
          if (step.element === 'Test') return this.openTestResult(tag, step);
          return C_IGNORE;
        default:
          return C_IGNORE;
      }
    }
    return C_IGNORE;
  }

  private openStep(tag: SaxesTagNS, element: StepElement): number {
    const parent = this.steps.length === 0 ? null : this.steps[this.steps.length - 1];
    // Every step stores its path's key, which grows with its depth (about a byte per level, db/encodings/stepPathKey.ts):
    // without a bound, a small file of deeply nested groups makes a database quadratic in its size (1.5 MB of
    // nesting was 2.1 GB with text paths). TestStand's own reports nest a handful of levels (the reference's sample: 3).
    if (this.steps.length >= MAX_STEP_DEPTH) this.fail(`steps nest deeper than ${MAX_STEP_DEPTH} levels`);
    if (element === 'ResultSet') {
      if (this.resultSet !== null) this.fail('unsupported ATML document: more than one ResultSet');
    } else if (parent === null) {
      return C_IGNORE;
    }
    if (parent !== null && !parent.emitted && parent.outcomeSeen) this.emitStep(parent);
    const frame: StepFrame = {
      key: this.nextKey++,
      parentKey: parent === null ? null : parent.key,
      path: parent === null ? '1' : `${parent.path}.${++parent.childCount}`,
      childCount: 0,
      element,
      name: attr(tag, 'name') ?? '',
      callerName: attr(tag, 'callerName') ?? '',
      resultId: attr(tag, 'ID'),
      testReferenceId: attr(tag, 'testReferenceID'),
      startTime: this.timestamp(tag, 'startDateTime'),
      endTime: this.timestamp(tag, 'endDateTime'),
      tsStepType: undefined,
      tsStepGroup: undefined,
      loop: [],
      outcomeSeen: false,
      status: 'TEST_STATUS_UNSPECIFIED',
      rawOutcome: undefined,
      errorCode: undefined,
      errorMessage: undefined,
      errorOccurred: undefined,
      emitted: false,
      pending: null,
    };
    if (element === 'ResultSet') this.resultSet = frame;
    this.steps.push(frame);
    return C_STEP;
  }

  private timestamp(tag: SaxesTagNS, name: string): number {
    const v = attr(tag, name);
    if (v === undefined) this.fail(`missing ${name} on <${tag.name}>`);
    const t = parseAtmlTimestamp(v);
    if (t === null) this.fail(`invalid ${name} "${v}" on <${tag.name}>`);
    return t;
  }

  private topStep(): StepFrame {
    return this.steps[this.steps.length - 1];
  }

  private closeStep(): void {
    const step = this.steps.pop();
    if (step === undefined) return;
    if (!step.emitted) this.emitStep(step);
    if (step.pending !== null) {
      for (const tr of step.pending) this.emitMeasurement(tr);
      step.pending = null;
    }
  }

  private emitStep(s: StepFrame): void {
    s.emitted = true;
    for (const [field, text] of [
      ['name', s.name],
      ['callerName', s.callerName],
      ['error message', s.errorMessage ?? ''],
      ['outcome', s.rawOutcome ?? ''],
    ] as const) {
      if (text.length > MAX_FIELD_CHARS) this.fail(`a step's ${field} is longer than ${MAX_FIELD_CHARS} characters`);
    }
    const metadata: ParsedMetadata[] = [];
    if (s.tsStepType !== undefined) metadata.push({ key: 'step_type', stringValue: s.tsStepType });
    if (s.tsStepGroup !== undefined) metadata.push({ key: 'step_group', stringValue: s.tsStepGroup });
    if (s.testReferenceId !== undefined) metadata.push({ key: 'test_reference_id', stringValue: s.testReferenceId });
    if (s.resultId !== undefined) metadata.push({ key: 'result_id', stringValue: s.resultId });
    for (const m of s.loop) metadata.push(m);
    if (s.rawOutcome !== undefined) metadata.push({ key: 'outcome', stringValue: s.rawOutcome });
    this.emittedSteps++;
    this.sink.step({
      key: s.key,
      parentKey: s.parentKey,
      name: s.name,
      description: s.element === 'TestGroup' ? s.callerName : '',
      stepType: stepTypeOf(s),
      stepPath: s.path,
      status: s.status,
      startTime: s.startTime,
      endTime: s.endTime,
      errorInfo: s.errorOccurred === true ? { errorCode: s.errorCode ?? 0, errorMessage: s.errorMessage ?? '' } : null,
      metadata,
    });
  }

  // -------------------------------------------------------------------------------------------------

  private startCapture(kind: number): number {
    this.captureKind = kind;
    this.captureText = '';
    // Text events are only switched on while a wanted text node is open: saxes skips building the
    // (mostly whitespace) text between all other tags when no handler is set.
    this.xml.on('text', this.onText);
    this.xml.on('cdata', this.onText);
    return C_CAPTURE;
  }

  private finishCapture(): void {
    this.xml.off('text');
    this.xml.off('cdata');
    const text = this.captureText;
    this.captureText = '';
    switch (this.captureKind) {
      case CAP_STEP_TYPE:
        this.topStep().tsStepType = text.trim();
        break;
      case CAP_STEP_GROUP:
        this.topStep().tsStepGroup = text.trim();
        break;
      case CAP_PROGRAM_SERIAL:
        this.programSerial ??= text.trim();
        break;
      case CAP_STATION_SERIAL:
        this.stationSerial ??= text.trim();
        break;
      case CAP_UUT_SERIAL:
        this.uutSerial ??= text.trim();
        break;
      case CAP_MODEL_NAME:
        this.modelName ??= text.trim();
        break;
      case CAP_DATUM_VALUE:
        // Datum strings are data, so they keep their whitespace (only XML's CRLF -> LF applies).
        if (this.datum !== null) this.datum.text = text;
        break;
      default:
        break;
    }
    this.captureKind = 0;
  }

  private startDatum(tag: SaxesTagNS, target: DatumTarget): number {
    this.datum = {
      kind: this.xsiKind(tag),
      value: attr(tag, 'value'),
      text: undefined,
      unit: nonEmpty(attr(tag, 'nonStandardUnit')) ?? nonEmpty(attr(tag, 'unit')) ?? null,
      line: this.xml.line,
    };
    this.datumTarget = target;
    return C_DATUM;
  }

  private xsiKind(tag: SaxesTagNS): ValueKind {
    let qname: string | undefined;
    const direct = tag.attributes['xsi:type'];
    if (direct !== undefined && direct.uri === URI_XSI) {
      qname = direct.value;
    } else {
      for (const k in tag.attributes) {
        const a = tag.attributes[k];
        if (a.uri === URI_XSI && a.local === 'type') {
          qname = a.value;
          break;
        }
      }
    }
    if (qname === undefined) return 'other';
    qname = qname.trim();
    const colon = qname.indexOf(':');
    const prefix = colon === -1 ? '' : qname.slice(0, colon);
    const local = colon === -1 ? qname : qname.slice(colon + 1);
    const uri = this.xml.resolve(prefix);
    const ns = uri === undefined ? NS_OTHER : this.ns(uri);
    if (ns === NS_TS) {
      switch (local) {
        case 'TS_double':
        case 'TS_int64':
        case 'TS_uint64':
        case 'TS_number':
          return 'double';
        case 'TS_string':
          return 'string';
        case 'TS_boolean':
          return 'boolean';
        default:
          return 'other';
      }
    }
    if (ns === NS_C || ns === NS_XSD) {
      if (local === 'string') return 'string';
      if (local === 'boolean') return 'boolean';
      if (XSD_NUMERIC_TYPES.has(local)) return 'double';
    }
    return 'other';
  }

  private finishDatum(): void {
    const d = this.datum;
    const target = this.datumTarget;
    this.datum = null;
    this.datumTarget = null;
    if (d === null || target === null) return;
    switch (target.kind) {
      case DT_ERROR_FIELD:
        this.applyErrorField(target.key, d);
        break;
      case DT_ADDITIONAL: {
        const m = this.metadataOf(target.key, d);
        if (m !== null) this.additional.push(m);
        break;
      }
      case DT_MEASURED:
        if (this.testResult !== null) this.testResult.measured = d;
        break;
      case DT_LIMIT:
        if (target.condition !== null) target.condition.datum = d;
        break;
      default:
        break;
    }
  }

  private applyErrorField(field: string, d: Datum): void {
    const step = this.topStep();
    const raw = d.value ?? d.text ?? '';
    switch (field) {
      case 'Code': {
        const n = parseNumber(raw);
        if (n !== null) step.errorCode = n;
        break;
      }
      case 'Msg':
        step.errorMessage = d.text ?? d.value ?? '';
        break;
      case 'Occurred': {
        const b = parseBoolean(raw);
        if (b !== null) step.errorOccurred = b;
        break;
      }
      default:
        break;
    }
  }

  private metadataOf(key: string, d: Datum): ParsedMetadata | null {
    const raw = d.value ?? d.text;
    if (raw === undefined) return d.kind === 'string' ? { key, stringValue: '' } : null;
    if (d.kind === 'double') {
      const n = parseNumber(raw);
      if (n !== null && Number.isFinite(n)) return { key, numberValue: n };
    } else if (d.kind === 'boolean') {
      const b = parseBoolean(raw);
      if (b !== null) return { key, booleanValue: b };
    }
    return { key, stringValue: raw };
  }

  // -------------------------------------------------------------------------------------------------

  private openTestResult(tag: SaxesTagNS, step: StepFrame): number {
    if (!step.emitted && step.outcomeSeen) this.emitStep(step);
    this.testResult = {
      step,
      name: attr(tag, 'name') ?? '',
      resultId: attr(tag, 'ID'),
      measured: null,
      limits: [],
      ownStatus: undefined,
    };
    return C_TEST_RESULT;
  }

  private finishTestResult(): void {
    const tr = this.testResult;
    this.testResult = null;
    this.limitCondition = null;
    if (tr === null || tr.measured === null) return;
    if (tr.step.emitted) {
      this.emitMeasurement(tr);
    } else {
      (tr.step.pending ??= []).push(tr);
    }
  }

  private emitMeasurement(tr: TestResultFrame): void {
    const d = tr.measured;
    if (d === null) return;
    const step = tr.step;
    const resultName = tr.name.trim();
    const name = resultName === '' || resultName === 'Numeric' ? step.name : `${step.name}: ${resultName}`;
    const m: ParsedMeasurement = {
      stepKey: step.key,
      name,
      measurementType: 'TEST_MEASUREMENT_TYPE_DOUBLE',
      unit: d.unit,
      numericBounds: null,
      stringBounds: null,
      passed: true,
      timestamp: step.endTime,
      description: '',
      metadata: tr.resultId === undefined ? [] : [{ key: 'result_id', stringValue: tr.resultId }],
    };
    const value = this.measuredValue(d, tr);
    if (typeof value === 'number') {
      m.measurementType = 'TEST_MEASUREMENT_TYPE_DOUBLE';
      m.numericValue = value;
    } else if (typeof value === 'boolean') {
      m.measurementType = 'TEST_MEASUREMENT_TYPE_BOOLEAN';
      m.booleanValue = value;
    } else {
      m.measurementType = 'TEST_MEASUREMENT_TYPE_STRING';
      m.stringValue = value;
    }
    if (m.unit === null) {
      for (const g of tr.limits) for (const c of g.conditions) if (m.unit === null && c.datum?.unit) m.unit = c.datum.unit;
    }

    const bounds: { min?: number; max?: number } = {};
    let boundsUsable = true;
    const parts: string[] = [];
    for (const g of tr.limits) {
      const texts: string[] = [];
      for (const c of g.conditions) {
        texts.push(conditionText(c));
        if (c.datum === null) continue;
        const kind = limitKind(c.datum);
        if (kind === 'string') {
          if (c.comparator === 'EQ' || c.comparator === 'CIEQ') m.stringBounds = { expectedValue: c.datum.text ?? c.datum.value ?? '' };
          continue;
        }
        const x = parseNumber(c.datum.value ?? c.datum.text ?? '');
        if (x === null || kind !== 'double') continue;
        // NumericBounds cannot express strictness or "outside the range", so OR pairs give no bounds.
        if (g.operator === 'OR') boundsUsable = false;
        if (c.comparator === 'GE' || c.comparator === 'GT') bounds.min = x;
        else if (c.comparator === 'LE' || c.comparator === 'LT') bounds.max = x;
        else if (c.comparator === 'EQ') {
          bounds.min = x;
          bounds.max = x;
        }
      }
      parts.push(texts.join(` ${g.operator} `));
    }
    if (boundsUsable && (bounds.min !== undefined || bounds.max !== undefined)) m.numericBounds = bounds;
    m.description = parts.join(' AND ');
    m.passed = this.measurementPassed(tr, value);
    this.emittedMeasurements++;
    this.sink.measurement(m);
  }

  private measuredValue(d: Datum, tr: TestResultFrame): number | boolean | string {
    const raw = d.value ?? d.text;
    const where = `TestResult "${tr.name}" of step "${tr.step.name}"`;
    switch (d.kind) {
      case 'double': {
        const n = raw === undefined ? null : parseNumber(raw);
        if (n === null) throw new AtmlParseError(`invalid numeric value "${raw ?? ''}" in ${where} at line ${d.line}`);
        return n;
      }
      case 'boolean': {
        const b = raw === undefined ? null : parseBoolean(raw);
        if (b === null) throw new AtmlParseError(`invalid boolean value "${raw ?? ''}" in ${where} at line ${d.line}`);
        return b;
      }
      case 'string':
        return d.text ?? d.value ?? '';
      default: {
        // Unknown or missing xsi:type: infer from the text so the value is not lost.
        if (d.value !== undefined) {
          const n = parseNumber(d.value);
          if (n !== null) return n;
          const b = parseBoolean(d.value);
          if (b !== null && !/^[01]$/.test(d.value.trim())) return b;
        }
        return raw ?? '';
      }
    }
  }

  private measurementPassed(tr: TestResultFrame, value: number | boolean | string): boolean {
    if (tr.ownStatus !== undefined) return tr.ownStatus === 'TEST_STATUS_PASSED';
    const hasLimits = tr.limits.some((g) => g.conditions.length > 0);
    if (!hasLimits) {
      // A PassFailTest reports its verdict as the boolean "Passed?" result.
      if (tr.name.trim() === 'Passed?' && typeof value === 'boolean') return value;
      return true;
    }
    if (tr.step.status === 'TEST_STATUS_PASSED') return true;
    // The Test did not pass: with several results, the comparators tell which ones were out of limits.
    const verdict = evaluateLimits(tr.limits, value);
    return verdict ?? false;
  }
}

function translate(e: unknown): unknown {
  if (e instanceof XmlSyntaxError) return new AtmlParseError(`not well-formed XML: ${e.message}`);
  return e;
}

function nonEmpty(s: string | undefined): string | undefined {
  if (s === undefined) return undefined;
  const t = s.trim();
  return t === '' ? undefined : t;
}

function isErrorItemName(name: string | undefined): boolean {
  if (name === undefined) return false;
  const n = name.trim().toLowerCase();
  // LabVIEW/CVI adapters name the cluster "error out [Out]"; TestStand's own is "Error".
  return n === 'error' || n.startsWith('error out');
}

function stepTypeOf(s: StepFrame): ParsedStepType {
  switch (s.element) {
    case 'ResultSet':
      return 'TEST_STEP_TYPE_SEQUENCE';
    case 'TestGroup':
      return 'TEST_STEP_TYPE_GROUP';
    case 'Test':
      // A sequence call that produced no TestGroup (loop summary, skipped call) is still a group.
      return s.tsStepType === 'SequenceCall' ? 'TEST_STEP_TYPE_GROUP' : 'TEST_STEP_TYPE_ACTION';
    case 'SessionAction':
      return s.tsStepType !== undefined && s.tsStepType.startsWith('NI_Flow_') ? 'TEST_STEP_TYPE_FLOW_CONTROL' : 'TEST_STEP_TYPE_ACTION';
  }
}

function limitKind(d: Datum): ValueKind {
  if (d.kind !== 'other') return d.kind;
  if (d.value !== undefined && parseNumber(d.value) !== null) return 'double';
  return 'string';
}

function conditionText(c: LimitCondition): string {
  if (c.datum === null) return c.comparator;
  const d = c.datum;
  const v = limitKind(d) === 'string' ? JSON.stringify(d.text ?? d.value ?? '') : (d.value ?? d.text ?? '').trim();
  return d.unit === null ? `${c.comparator} ${v}` : `${c.comparator} ${v} ${d.unit}`;
}

function compare(comparator: string, value: number | boolean | string, limit: Datum): boolean | null {
  if (typeof value === 'number') {
    const x = parseNumber(limit.value ?? limit.text ?? '');
    if (x === null) return null;
    switch (comparator) {
      case 'LT':
        return value < x;
      case 'LE':
        return value <= x;
      case 'GT':
        return value > x;
      case 'GE':
        return value >= x;
      case 'EQ':
        return value === x;
      case 'NE':
        return value !== x;
      default:
        return null;
    }
  }
  if (typeof value === 'boolean') {
    const b = parseBoolean(limit.value ?? limit.text ?? '');
    if (b === null) return null;
    if (comparator === 'EQ') return value === b;
    if (comparator === 'NE') return value !== b;
    return null;
  }
  const expected = limit.text ?? limit.value ?? '';
  switch (comparator) {
    case 'EQ':
      return value === expected;
    case 'NE':
      return value !== expected;
    case 'CIEQ':
      return value.toLowerCase() === expected.toLowerCase();
    case 'CINE':
      return value.toLowerCase() !== expected.toLowerCase();
    default:
      return null;
  }
}

function evaluateLimits(groups: LimitGroup[], value: number | boolean | string): boolean | null {
  let all = true;
  for (const g of groups) {
    if (g.conditions.length === 0) continue;
    const results: boolean[] = [];
    for (const c of g.conditions) {
      if (c.datum === null) return null;
      const r = compare(c.comparator, value, c.datum);
      if (r === null) return null;
      results.push(r);
    }
    const ok = g.operator === 'OR' ? results.some(Boolean) : results.every(Boolean);
    all = all && ok;
  }
  return all;
}

// ---------------------------------------------------------------------------------------------------
// Byte decoding: the XML declaration names the charset, and it is ASCII in every ASCII-compatible
// charset, so it can be read from the first bytes before choosing a decoder.

const HEAD_LIMIT = 1024;

function sniffEncoding(head: Uint8Array, final: boolean): string | null {
  const b0 = head[0];
  const b1 = head[1];
  if (head.length >= 2) {
    if (b0 === 0xff && b1 === 0xfe) return 'utf-16le';
    if (b0 === 0xfe && b1 === 0xff) return 'utf-16be';
  }
  if (head.length >= 3 && b0 === 0xef && b1 === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head.length >= 4) {
    if (b0 === 0x3c && b1 === 0x00 && head[2] === 0x3f && head[3] === 0x00) return 'utf-16le';
    if (b0 === 0x00 && b1 === 0x3c && head[2] === 0x00 && head[3] === 0x3f) return 'utf-16be';
  }
  const prefix = '<?xml';
  const n = Math.min(head.length, prefix.length);
  for (let i = 0; i < n; i++) {
    if (head[i] !== prefix.charCodeAt(i)) return 'utf-8';
  }
  if (head.length < prefix.length) return final ? 'utf-8' : null;
  let end = -1;
  const limit = Math.min(head.length, HEAD_LIMIT);
  for (let i = prefix.length; i + 1 < limit; i++) {
    if (head[i] === 0x3f && head[i + 1] === 0x3e) {
      end = i;
      break;
    }
  }
  if (end === -1) return final || head.length >= HEAD_LIMIT ? 'utf-8' : null;
  const decl = Buffer.from(head.buffer, head.byteOffset, end).toString('latin1');
  const m = /\sencoding\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(decl);
  const label = (m?.[1] ?? m?.[2] ?? 'utf-8').trim().toLowerCase();
  // A UTF-16 label on bytes that are visibly ASCII-compatible cannot be right; the bytes win.
  if (label.startsWith('utf-16') || label === 'unicode') return 'utf-8';
  return label;
}

function makeDecoder(label: string): TextDecoder {
  try {
    // WHATWG maps the iso-8859-1/latin1 labels to windows-1252, which is also what Windows
    // TestStand installations actually write under that label.
    return new TextDecoder(label, { fatal: true });
  } catch {
    throw new AtmlParseError(`unsupported character encoding "${label}" in the XML declaration`);
  }
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * Parse a TestStand ATML report from a byte stream, emitting steps and measurements to `sink` as they
 * complete and the report last. Throws AtmlParseError for input that is not a usable ATML report;
 * errors thrown by the sink propagate unchanged.
 */
export async function parseAtml(
  source: AsyncIterable<Uint8Array> | NodeJS.ReadableStream,
  sink: AtmlSink,
  options: ParseAtmlOptions = {},
): Promise<ParseAtmlResult> {
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  const parser = new AtmlStreamParser(sink);
  let decoder: TextDecoder | null = null;
  let head: Uint8Array = new Uint8Array(0);
  let total = 0;

  const decode = (bytes: Uint8Array, stream: boolean): string => {
    try {
      return (decoder as TextDecoder).decode(bytes, { stream });
    } catch {
      throw new AtmlParseError(`not well-formed XML: byte sequence is not valid ${(decoder as TextDecoder).encoding}`);
    }
  };
  const startDecoding = (final: boolean): void => {
    const label = sniffEncoding(head, final);
    if (label === null) return;
    decoder = makeDecoder(label);
    const text = decode(head, !final);
    head = new Uint8Array(0);
    if (text.length > 0) parser.write(text);
  };

  for await (const chunk of source as AsyncIterable<Uint8Array | string>) {
    if (typeof chunk === 'string') {
      // Already-decoded text (a stream with setEncoding): the declared charset no longer applies.
      total += chunk.length;
      if (total > maxBytes) throw new AtmlParseError(`input exceeds the ${maxBytes}-byte limit`);
      if (decoder === null && head.length > 0) startDecoding(true);
      if (chunk.length > 0) parser.write(chunk);
      continue;
    }
    total += chunk.byteLength;
    if (total > maxBytes) throw new AtmlParseError(`input exceeds the ${maxBytes}-byte limit`);
    if (decoder === null) {
      head = head.length === 0 ? chunk : concatBytes(head, chunk);
      startDecoding(false);
    } else {
      const text = decode(chunk, true);
      if (text.length > 0) parser.write(text);
    }
  }
  if (total === 0) throw new AtmlParseError('empty input: expected an ATML test results document');
  if (decoder === null) {
    startDecoding(true);
  } else {
    const rest = decode(new Uint8Array(0), false);
    if (rest.length > 0) parser.write(rest);
  }
  return parser.finish();
}

/** Convenience wrapper: stream a file from disk through parseAtml. File-system errors propagate as is. */
export async function parseAtmlFile(path: string, sink: AtmlSink, options: ParseAtmlOptions = {}): Promise<ParseAtmlResult> {
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  try {
    return await parseAtml(stream, sink, options);
  } finally {
    stream.destroy();
  }
}
