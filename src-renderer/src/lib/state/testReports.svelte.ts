// The test-report view: the report list (with where each report came from),
// the selected report's step tree (collapsible), its failures (the steps
// where it failed and its failed measurements, each a click from its place in
// the tree) and the measurements of the selected step.
import type { Client } from '../../../../src-shared/client';
import { toErrorInfo, type ErrorInfo } from '../errors';
import {
  getTestReport,
  buildStepTree,
  innermostFailingSteps,
  listAllSteps,
  listFailedMeasurements,
  listReportSources,
  listStepMeasurements,
  listTestReports,
  visibleNodes,
  type ReportSource,
  type StepNode,
  type TestMeasurement,
  type TestReport,
  type TestStep,
} from '../services/testReportService';
import { PagedList } from './pagedList.svelte';

export class TestReportWorkspace {
  readonly list: PagedList<TestReport>;

  selected = $state<TestReport | undefined>();
  /** Where each listed report came from (its file, when it was stored), by report id, as they arrive. */
  sources = $state.raw<ReadonlyMap<string, ReportSource>>(new Map());
  /** The selected report's steps in step_path order. */
  steps = $state.raw<TestStep[]>([]);
  tree = $state<StepNode[]>([]);
  stepCount = $state(0);
  stepsTruncated = $state(false);
  stepsLoading = $state(false);
  stepsError = $state<ErrorInfo | undefined>();
  collapsed = $state<ReadonlySet<string>>(new Set());
  rows = $derived(visibleNodes(this.tree, this.collapsed));
  /** The steps where the selected report failed (failing, with no failing step inside). */
  failingSteps = $derived(innermostFailingSteps(this.steps));
  failedMeasurements = $state.raw<TestMeasurement[]>([]);
  failedMeasurementsTruncated = $state(false);
  failuresError = $state<ErrorInfo | undefined>();
  /** A measurement a failure entry pointed at (highlighted in the step's table). */
  selectedMeasurementId = $state<string | undefined>();

  selectedStepId = $state<string | undefined>();
  measurements = $state<TestMeasurement[]>([]);
  measurementsTruncated = $state(false);
  measurementsLoading = $state(false);
  measurementsError = $state<ErrorInfo | undefined>();

  readonly #client: Client;
  #report = 0;
  #step = 0;

  constructor(client: Client) {
    this.#client = client;
    this.list = new PagedList({
      fetchPage: (_noQuery, pageToken) =>
        listTestReports(client, pageToken).then((p) => ({ items: p.testReports, nextPageToken: p.nextPageToken })),
      keyOf: (r) => r.testReportId,
    });
  }

  load(): Promise<void> {
    return this.list.load();
  }

  /** Reads where the given reports came from (those not read yet); a failure leaves them without (the list still shows). */
  async loadSources(reports: readonly TestReport[]): Promise<void> {
    const ids = reports.map((r) => r.testReportId).filter((id) => !this.sources.has(id));
    if (ids.length === 0) return;
    try {
      const found = await listReportSources(this.#client, ids);
      this.sources = new Map([...this.sources, ...found]);
    } catch {
      // The report list shows without its sources: each row still has its title, test case, system and time.
    }
  }

  /** Opens the report `id` (the address or the palette named it): the listed one, else read by id. */
  async openById(id: string): Promise<void> {
    await this.select(this.list.get(id) ?? (await getTestReport(this.#client, id)));
  }

  async select(report: TestReport): Promise<void> {
    const generation = ++this.#report;
    this.#step++;
    this.selected = report;
    this.steps = [];
    this.failedMeasurements = [];
    this.failedMeasurementsTruncated = false;
    this.failuresError = undefined;
    this.selectedMeasurementId = undefined;
    this.tree = [];
    this.stepCount = 0;
    this.collapsed = new Set();
    this.selectedStepId = undefined;
    this.measurements = [];
    this.measurementsError = undefined;
    this.stepsError = undefined;
    this.stepsLoading = true;
    const failures = listFailedMeasurements(this.#client, report.testReportId).then(
      ({ measurements, truncated }) => {
        if (generation !== this.#report) return;
        this.failedMeasurements = measurements;
        this.failedMeasurementsTruncated = truncated;
      },
      (e: unknown) => {
        if (generation === this.#report) this.failuresError = toErrorInfo(e);
      },
    );
    try {
      const { steps, truncated } = await listAllSteps(this.#client, report.testReportId);
      if (generation !== this.#report) return;
      this.steps = steps;
      this.tree = buildStepTree(steps);
      this.stepCount = steps.length;
      this.stepsTruncated = truncated;
    } catch (e) {
      if (generation === this.#report) this.stepsError = toErrorInfo(e);
    } finally {
      if (generation === this.#report) this.stepsLoading = false;
    }
    await failures;
  }

  /** Shows a step in the tree: its collapsed ancestors are expanded, and it is selected (its measurements load). */
  revealStep(stepId: string): Promise<void> {
    const byId = new Map(this.steps.map((s) => [s.testStepId, s]));
    const expanded = new Set(this.collapsed);
    for (let at = byId.get(stepId)?.parentStepId; at; at = byId.get(at)?.parentStepId) expanded.delete(at);
    this.collapsed = expanded;
    return this.selectStep(stepId);
  }

  /** Shows a measurement: its step revealed and selected, the measurement marked in the step's table. */
  async revealMeasurement(m: TestMeasurement): Promise<void> {
    await this.revealStep(m.testStepId);
    this.selectedMeasurementId = m.measurementId;
  }

  toggle(stepId: string): void {
    const next = new Set(this.collapsed);
    if (next.has(stepId)) next.delete(stepId);
    else next.add(stepId);
    this.collapsed = next;
  }

  async selectStep(stepId: string): Promise<void> {
    const generation = ++this.#step;
    this.selectedStepId = stepId;
    this.selectedMeasurementId = undefined;
    this.measurements = [];
    this.measurementsError = undefined;
    this.measurementsLoading = true;
    try {
      const { measurements, truncated } = await listStepMeasurements(this.#client, stepId);
      if (generation !== this.#step) return;
      this.measurements = measurements;
      this.measurementsTruncated = truncated;
    } catch (e) {
      if (generation === this.#step) this.measurementsError = toErrorInfo(e);
    } finally {
      if (generation === this.#step) this.measurementsLoading = false;
    }
  }
}
