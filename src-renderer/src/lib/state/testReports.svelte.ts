// The test-report view: the report list, the selected report's step tree
// (collapsible) and the measurements of the selected step.
import type { Client } from '../../../../src-shared/client';
import { toErrorInfo, type ErrorInfo } from '../errors';
import {
  buildStepTree,
  listAllSteps,
  listStepMeasurements,
  listTestReports,
  visibleNodes,
  type StepNode,
  type TestMeasurement,
  type TestReport,
} from '../services/testReportService';
import { PagedList } from './pagedList.svelte';

export class TestReportWorkspace {
  readonly list: PagedList<TestReport>;

  selected = $state<TestReport | undefined>();
  tree = $state<StepNode[]>([]);
  stepCount = $state(0);
  stepsTruncated = $state(false);
  stepsLoading = $state(false);
  stepsError = $state<ErrorInfo | undefined>();
  collapsed = $state<ReadonlySet<string>>(new Set());
  rows = $derived(visibleNodes(this.tree, this.collapsed));

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

  async select(report: TestReport): Promise<void> {
    const generation = ++this.#report;
    this.#step++;
    this.selected = report;
    this.tree = [];
    this.stepCount = 0;
    this.collapsed = new Set();
    this.selectedStepId = undefined;
    this.measurements = [];
    this.measurementsError = undefined;
    this.stepsError = undefined;
    this.stepsLoading = true;
    try {
      const { steps, truncated } = await listAllSteps(this.#client, report.testReportId);
      if (generation !== this.#report) return;
      this.tree = buildStepTree(steps);
      this.stepCount = steps.length;
      this.stepsTruncated = truncated;
    } catch (e) {
      if (generation === this.#report) this.stepsError = toErrorInfo(e);
    } finally {
      if (generation === this.#report) this.stepsLoading = false;
    }
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
