// Test reports, their step tree and measurements, as the test-report view uses them.
import type { TestMeasurement, TestReport, TestStep } from '../../../../src-shared/api/testReports';
import type { Client } from '../../../../src-shared/client';

export type { TestMeasurement, TestReport, TestStep };

export const REPORT_PAGE_SIZE = 50;

/** A CEL string literal (ids and names are quoted, never spliced in raw). */
export function celString(value: string): string {
  return JSON.stringify(value);
}

export async function listTestReports(client: Client, pageToken?: string): Promise<{ testReports: TestReport[]; nextPageToken: string }> {
  const res = await client.ListTestReports({ pageSize: REPORT_PAGE_SIZE, orderBy: 'start_time desc', ...(pageToken ? { pageToken } : {}) });
  return { testReports: res.testReports, nextPageToken: res.nextPageToken };
}

/** One report by id (the palette and the address open one that is not listed yet). */
export async function getTestReport(client: Client, testReportId: string): Promise<TestReport> {
  return (await client.GetTestReport({ testReportId })).testReport;
}

/** Every step of a report in step_path order (natural: 1.9 before 1.10). */
export async function listAllSteps(
  client: Client,
  testReportId: string,
  limit = 10_000,
): Promise<{ steps: TestStep[]; truncated: boolean }> {
  const steps: TestStep[] = [];
  let pageToken: string | undefined;
  do {
    const res = await client.ListTestSteps({
      filter: `test_report_id == ${celString(testReportId)}`,
      orderBy: 'step_path',
      pageSize: 1000,
      ...(pageToken ? { pageToken } : {}),
    });
    steps.push(...res.testSteps);
    pageToken = res.nextPageToken || undefined;
  } while (pageToken && steps.length < limit);
  return { steps, truncated: !!pageToken };
}

/** The measurements of one step, in time order. */
export async function listStepMeasurements(
  client: Client,
  testStepId: string,
  limit = 5000,
): Promise<{ measurements: TestMeasurement[]; truncated: boolean }> {
  const measurements: TestMeasurement[] = [];
  let pageToken: string | undefined;
  do {
    const res = await client.ListTestMeasurements({
      filter: `test_step_id == ${celString(testStepId)}`,
      orderBy: 'timestamp',
      pageSize: 1000,
      ...(pageToken ? { pageToken } : {}),
    });
    measurements.push(...res.testMeasurements);
    pageToken = res.nextPageToken || undefined;
  } while (pageToken && measurements.length < limit);
  return { measurements, truncated: !!pageToken };
}

export interface StepNode {
  readonly step: TestStep;
  readonly depth: number;
  readonly children: StepNode[];
}

/** Nests steps under their parents, keeping the given order; orphans (parent not listed) become roots. */
export function buildStepTree(steps: readonly TestStep[]): StepNode[] {
  const byId = new Map<string, { step: TestStep; children: TestStep[] }>();
  for (const step of steps) byId.set(step.testStepId, { step, children: [] });
  const roots: TestStep[] = [];
  for (const step of steps) {
    const parent = step.parentStepId ? byId.get(step.parentStepId) : undefined;
    if (parent && parent.step !== step) parent.children.push(step);
    else roots.push(step);
  }
  const seen = new Set<string>();
  const toNode = (step: TestStep, depth: number): StepNode => {
    seen.add(step.testStepId);
    const children = byId.get(step.testStepId)!.children.filter((c) => !seen.has(c.testStepId));
    return { step, depth, children: children.map((c) => toNode(c, depth + 1)) };
  };
  return roots.map((r) => toNode(r, 0));
}

/** Depth-first list of the nodes whose ancestors are all expanded. */
export function visibleNodes(roots: readonly StepNode[], collapsed: ReadonlySet<string>): StepNode[] {
  const out: StepNode[] = [];
  const walk = (nodes: readonly StepNode[]) => {
    for (const node of nodes) {
      out.push(node);
      if (!collapsed.has(node.step.testStepId)) walk(node.children);
    }
  };
  walk(roots);
  return out;
}

function num(value: number | string | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value; // NaN / Infinity
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(6)));
}

/** The measured value as shown (`101.3 kPa`, `"PASS"`, `true`). */
export function measurementValue(m: TestMeasurement): string {
  const unit = m.unit?.abbreviatedName ? ` ${m.unit.abbreviatedName}` : '';
  if (m.numericValue !== undefined) return `${num(m.numericValue)}${unit}`;
  if (m.stringValue !== undefined) return JSON.stringify(m.stringValue);
  if (m.booleanValue !== undefined) return String(m.booleanValue);
  return '—';
}

/** The limits as shown (`95 ≤ x ≤ 105`, `≥ 3`, `= "PASS"`), or '' when there are none. */
export function measurementBounds(m: TestMeasurement): string {
  if (m.numericBounds) {
    const { min, max } = m.numericBounds;
    if (min !== undefined && max !== undefined) return `${num(min)} ≤ x ≤ ${num(max)}`;
    if (min !== undefined) return `≥ ${num(min)}`;
    if (max !== undefined) return `≤ ${num(max)}`;
  }
  if (m.stringBounds) return `= ${JSON.stringify(m.stringBounds.expectedValue)}`;
  return '';
}

/** Where a report came from, as the report list tells two reports of the same title apart. */
export interface ReportSource {
  /** The ATML file it was imported from; undefined when made through the API, pulled, or the file is not readable here. */
  readonly fileName?: string;
  /** When this Outpost stored it: the import's time for an imported report. */
  readonly storedDate: string;
}

/** The source of each report (one GetTestReportSources, then one ListRemoteFiles for the files' names). */
export async function listReportSources(client: Client, testReportIds: readonly string[]): Promise<Map<string, ReportSource>> {
  const out = new Map<string, ReportSource>();
  if (testReportIds.length === 0) return out;
  const { sources } = await client.GetTestReportSources({ testReportIds: [...testReportIds] });
  const fileIds = [...new Set(sources.map((x) => x.remoteFileId).filter(Boolean))];
  const names = new Map<string, string>();
  if (fileIds.length) {
    const { remoteFiles } = await client.ListRemoteFiles({
      filter: `remote_file_id in [${fileIds.map(celString).join(', ')}]`,
      pageSize: fileIds.length,
    });
    for (const f of remoteFiles) names.set(f.remoteFileId, f.fileName);
  }
  for (const x of sources) out.set(x.testReportId, { fileName: names.get(x.remoteFileId), storedDate: x.createdDate });
  return out;
}

/** Statuses that mean a step failed. */
const FAILING: ReadonlySet<TestStep['status']> = new Set(['TEST_STATUS_FAILED', 'TEST_STATUS_ERROR', 'TEST_STATUS_ABORTED']);

export const isFailingStep = (step: TestStep): boolean => FAILING.has(step.status);

/**
 * The steps where a report failed: failing steps none of whose descendants failed (a group fails because a step in
 * it did; the step is where to look), in the given (step_path) order.
 */
export function innermostFailingSteps(steps: readonly TestStep[]): TestStep[] {
  const failingParents = new Set(steps.filter(isFailingStep).map((s) => s.parentStepId));
  return steps.filter((s) => isFailingStep(s) && !failingParents.has(s.testStepId));
}

/** A report's failed measurements, in step order then time (at most `limit`). */
export async function listFailedMeasurements(
  client: Client,
  testReportId: string,
  limit = 1000,
): Promise<{ measurements: TestMeasurement[]; truncated: boolean }> {
  const measurements: TestMeasurement[] = [];
  let pageToken: string | undefined;
  do {
    const res = await client.ListTestMeasurements({
      filter: `test_report_id == ${celString(testReportId)} && passed == false`,
      orderBy: 'timestamp',
      pageSize: Math.min(1000, limit),
      ...(pageToken ? { pageToken } : {}),
    });
    measurements.push(...res.testMeasurements);
    pageToken = res.nextPageToken || undefined;
  } while (pageToken && measurements.length < limit);
  return { measurements, truncated: !!pageToken };
}
