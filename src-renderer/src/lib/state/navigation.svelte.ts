// Where the app is: the view shown, the annotations view's route and the
// record open in another view (see route.ts), kept in the URL fragment by
// App.svelte. A change of view or of the listed query is a new history entry;
// moving the open record along the list replaces the current one (j/k would
// otherwise fill the history).
import type { AnnotationQuery } from '../services/annotationService';
import type { Rule } from '../services/ruleService';
import { RECORD_KINDS, RecentRecords, type RecentRecord } from '../palette/recentRecords.svelte';
import { DEFAULT_VIEW, EMPTY_ANNOTATION_ROUTE, formatRoute, parseRoute, sameQuery, type AnnotationRoute, type ViewId } from './route';

export { VIEWS, type ViewId } from './route';

export class NavigationState {
  view = $state<ViewId>(DEFAULT_VIEW);
  annotations = $state.raw<AnnotationRoute>(EMPTY_ANNOTATION_ROUTE);
  /** The record open in the view shown, when it is not the annotations view. */
  record = $state<string | undefined>();
  /** How the next address goes into the history. */
  historyMode: 'push' | 'replace' = 'push';
  /**
   * Counts routes that came from outside the annotations view while it may be on screen (back/forward): the view
   * applies `annotations` to its list and detail when this changes.
   */
  arrivals = $state(0);

  /** A rule for the rules view to show, and the condition to point at (from an annotation a rule made). */
  pendingRule = $state.raw<{ rule: Rule; conditionId: string } | undefined>();
  /** The records opened lately, of every kind (the command palette offers them). */
  readonly recent: RecentRecords;

  constructor(hash = '', storage?: ConstructorParameters<typeof RecentRecords>[0]) {
    this.recent = new RecentRecords(storage);
    this.fromHash(hash);
  }

  /** The address of what is shown. */
  get hash(): string {
    return formatRoute({ view: this.view, annotations: this.annotations, ...(this.record ? { open: this.record } : {}) });
  }

  /** Back/forward (or a reload) landed on `hash`. */
  fromHash(hash: string): void {
    const route = parseRoute(hash);
    this.view = route.view;
    this.record = route.open;
    // Another view's address keeps the annotations view's last route (coming back shows the same list).
    if (route.view === 'annotations') this.annotations = route.annotations;
    this.arrivals++;
  }

  go(view: ViewId): void {
    // The view on screen already: it stays as it is (its open record included).
    if (view === this.view) return;
    this.historyMode = 'push';
    this.view = view;
    this.record = undefined;
  }

  /** The view shown reports the record open in its detail: it replaces the address (like moving along a list). */
  showRecord(view: ViewId, id: string): void {
    if (this.view !== view || this.record === id) return;
    this.historyMode = 'replace';
    this.record = id;
  }

  /** Shows `record` in its view's detail (an annotation beside the list as it is listed now). */
  openRecord(record: Pick<RecentRecord, 'kind' | 'id'>): void {
    if (record.kind === 'annotation') return this.openAnnotations(this.annotations, record.id);
    this.historyMode = 'push';
    this.view = RECORD_KINDS[record.kind].view;
    this.record = record.id;
    this.arrivals++;
  }

  /** The annotations view reports what it shows: a new query is a new history entry, another open record is not. */
  showAnnotations(route: AnnotationRoute): void {
    const current = this.annotations;
    if (sameQuery(current, route) && current.open === route.open) return;
    this.historyMode = sameQuery(current, route) ? 'replace' : 'push';
    this.annotations = route;
  }

  /** Shows the annotations view listing `query`, with annotation `annotationId` open in its detail pane if given. */
  openAnnotations(query: AnnotationQuery, annotationId?: string): void {
    this.historyMode = 'push';
    this.annotations = {
      filter: query.filter,
      sort: query.sort,
      showArchived: query.showArchived ?? false,
      ...(annotationId ? { open: annotationId } : {}),
    };
    this.view = 'annotations';
    this.record = undefined;
    this.arrivals++;
  }

  /** Shows the rules view with `rule` open and `conditionId` marked. */
  openRule(rule: Rule, conditionId: string): void {
    this.pendingRule = { rule, conditionId };
    this.historyMode = 'push';
    this.view = 'rules';
    this.record = undefined;
  }

  takeRuleToOpen(): { rule: Rule; conditionId: string } | undefined {
    const pending = this.pendingRule;
    this.pendingRule = undefined;
    return pending;
  }
}
