// A private staging database for one ATML import. The streaming parser writes
// steps and measurements here as they arrive (its own better-sqlite3
// connection and file, so the async parse never holds a transaction open on
// the shared connection and never keeps the document in memory); the rows are
// then copied into the real tables in short transactions, by key ranges
// (copyStagedReport; the metadata tables are keyed by their owner for that). Staging rows get their UUIDs here; parents are resolved
// by key at copy time, so children may arrive before their parents. Steps are
// keyed by the parser's key (document order), measurements by arrival `seq`;
// the copy derives the real pks from them, so it needs no lookups by id.
import BetterSqlite3 from 'better-sqlite3';
import type { Database, Statement } from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MetadataKeyType } from '../../../src-shared/api/metadata';
import { TestMeasurementType, TestStatus, TestStepType } from '../../../src-shared/api/testReports';
import { encodeStepPath } from '../../db/encodings/stepPathKey';
import type { AtmlSink, ParsedMeasurement, ParsedMetadata, ParsedReport, ParsedStep } from './atmlParser';
import { BOUNDS_FIELD, VALUE_FIELD } from './testReportRows';

const SCHEMA = `
CREATE TABLE report (
  name TEXT NOT NULL, test_case TEXT NOT NULL, test_system_name TEXT NOT NULL, serial_number TEXT NOT NULL, part_number TEXT NOT NULL,
  system_operator TEXT NOT NULL, start_time INTEGER NOT NULL, end_time INTEGER NOT NULL, status INTEGER NOT NULL
);
CREATE TABLE report_metadata (
  position INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, type INTEGER NOT NULL, string_value TEXT, number_value REAL, boolean_value INTEGER
);
CREATE TABLE steps (
  key INTEGER PRIMARY KEY, id TEXT NOT NULL, parent_key INTEGER, name TEXT NOT NULL, description TEXT NOT NULL, step_type INTEGER NOT NULL,
  path_key BLOB NOT NULL, status INTEGER NOT NULL, start_time INTEGER NOT NULL, end_time INTEGER NOT NULL,
  error_code INTEGER, error_message TEXT
);
CREATE TABLE step_metadata (
  step_key INTEGER NOT NULL, key TEXT NOT NULL, type INTEGER NOT NULL, string_value TEXT, number_value REAL, boolean_value INTEGER,
  position INTEGER NOT NULL, PRIMARY KEY (step_key, position)
) WITHOUT ROWID;
CREATE TABLE measurements (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL, step_key INTEGER NOT NULL, measurement_type INTEGER NOT NULL, name TEXT NOT NULL,
  value_field INTEGER, numeric_value REAL, string_value TEXT, boolean_value INTEGER, unit TEXT, bounds_field INTEGER, bound_min REAL,
  bound_max REAL, expected_value TEXT, passed INTEGER NOT NULL, timestamp INTEGER NOT NULL, description TEXT NOT NULL
);
CREATE TABLE measurement_metadata (
  measurement_seq INTEGER NOT NULL, key TEXT NOT NULL, type INTEGER NOT NULL, string_value TEXT, number_value REAL, boolean_value INTEGER,
  position INTEGER NOT NULL, PRIMARY KEY (measurement_seq, position)
) WITHOUT ROWID;
`;

type MetadataColumns = [type: number, stringValue: string | null, numberValue: number | null, booleanValue: number | null];

function metadataColumns(m: ParsedMetadata): MetadataColumns {
  if (m.numberValue !== undefined) return [MetadataKeyType.numbers.METADATA_KEY_TYPE_NUMBER, null, m.numberValue, null];
  if (m.booleanValue !== undefined) return [MetadataKeyType.numbers.METADATA_KEY_TYPE_BOOLEAN, null, null, m.booleanValue ? 1 : 0];
  return [MetadataKeyType.numbers.METADATA_KEY_TYPE_STRING, m.stringValue ?? '', null, null];
}

/** The first entry of each key (metadata keys are unique per record). */
function uniqueKeys(list: readonly ParsedMetadata[]): readonly ParsedMetadata[] {
  if (list.length < 2) return list;
  const seen = new Set<string>();
  return list.filter((m) => !seen.has(m.key) && (seen.add(m.key), true));
}

const STAGING_PREFIX = 'import-';
const STALE_AFTER_MS = 24 * 3600 * 1000;

/** A fresh staging file path in `tmpDir`. */
export function stagingPath(tmpDir: string, id: string): string {
  return join(tmpDir, `${STAGING_PREFIX}${id}.sqlite`);
}

/** Deletes staging files a crashed process left behind (older than a day, so never a running import's). */
export function removeStaleStagingFiles(tmpDir: string, now = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(tmpDir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(STAGING_PREFIX)) continue;
    const path = join(tmpDir, name);
    try {
      if (now - statSync(path).mtimeMs > STALE_AFTER_MS) rmSync(path, { force: true });
    } catch {
      // raced with its own cleanup
    }
  }
}

export class ImportStaging {
  private readonly db: Database;
  private readonly insertReport: Statement;
  private readonly insertReportMetadata: Statement;
  private readonly insertStep: Statement;
  private readonly insertStepMetadata: Statement;
  private readonly insertMeasurement: Statement;
  private readonly insertMeasurementMetadata: Statement;
  private measurementSeq = 0;
  private closed = false;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.db = new BetterSqlite3(path);
    // Scratch data: no journal, no fsync. A crash leaves the file behind; removeStaleStagingFiles collects it later.
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.exec(SCHEMA);
    this.insertReport = this.db.prepare('INSERT INTO report VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    this.insertReportMetadata = this.db.prepare(
      'INSERT OR IGNORE INTO report_metadata(key, type, string_value, number_value, boolean_value) VALUES (?, ?, ?, ?, ?)',
    );
    this.insertStep = this.db.prepare('INSERT INTO steps VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    this.insertStepMetadata = this.db.prepare('INSERT INTO step_metadata VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.insertMeasurement = this.db.prepare('INSERT INTO measurements VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    this.insertMeasurementMetadata = this.db.prepare('INSERT INTO measurement_metadata VALUES (?, ?, ?, ?, ?, ?, ?)');
    // One transaction for the whole parse: this connection is private, so holding it across awaits is harmless.
    this.db.exec('BEGIN');
  }

  readonly sink: AtmlSink = {
    report: (r: ParsedReport) => {
      this.insertReport.run(
        r.name,
        r.testCase,
        r.testSystemName,
        r.serialNumber,
        r.partNumber,
        r.systemOperator,
        r.startTime,
        r.endTime,
        TestStatus.numbers[r.status],
      );
      for (const m of r.metadata) this.insertReportMetadata.run(m.key, ...metadataColumns(m));
    },
    step: (s: ParsedStep) => {
      this.insertStep.run(
        s.key,
        randomUUID(),
        s.parentKey,
        s.name,
        s.description,
        TestStepType.numbers[s.stepType],
        encodeStepPath(s.stepPath),
        TestStatus.numbers[s.status],
        s.startTime,
        s.endTime,
        s.errorInfo?.errorCode ?? null,
        s.errorInfo?.errorMessage ?? null,
      );
      uniqueKeys(s.metadata).forEach((m, i) => this.insertStepMetadata.run(s.key, m.key, ...metadataColumns(m), i));
    },
    measurement: (m: ParsedMeasurement) => {
      const seq = ++this.measurementSeq;
      const value: [number | null, number | null, string | null, number | null] =
        m.numericValue !== undefined
          ? [VALUE_FIELD.numeric, m.numericValue, null, null]
          : m.stringValue !== undefined
            ? [VALUE_FIELD.string, null, m.stringValue, null]
            : m.booleanValue !== undefined
              ? [VALUE_FIELD.boolean, null, null, m.booleanValue ? 1 : 0]
              : [null, null, null, null];
      const bounds: [number | null, number | null, number | null, string | null] = m.numericBounds
        ? [BOUNDS_FIELD.numeric, m.numericBounds.min ?? null, m.numericBounds.max ?? null, null]
        : m.stringBounds
          ? [BOUNDS_FIELD.string, null, null, m.stringBounds.expectedValue]
          : [null, null, null, null];
      this.insertMeasurement.run(
        seq,
        randomUUID(),
        m.stepKey,
        TestMeasurementType.numbers[m.measurementType],
        m.name,
        ...value,
        m.unit,
        ...bounds,
        m.passed ? 1 : 0,
        m.timestamp,
        m.description,
      );
      uniqueKeys(m.metadata).forEach((md, i) => this.insertMeasurementMetadata.run(seq, md.key, ...metadataColumns(md), i));
    },
  };

  /** Commits and closes the staging connection; the file is then ready to be attached. */
  finish(): void {
    this.db.exec('COMMIT');
    this.close();
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }

  /** Closes (if needed) and deletes the staging file. */
  remove(): void {
    try {
      this.close();
    } finally {
      for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(this.path + suffix, { force: true });
    }
  }
}
