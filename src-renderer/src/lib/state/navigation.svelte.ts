// Which view is shown, kept in the URL fragment (`#/policies`) so reload and
// back/forward work. The API key fragment (`#key=`) is consumed before this runs.
import type { AnnotationQuery } from '../services/annotationService';
import type { Rule } from '../services/ruleService';

export const VIEWS = [
  { id: 'annotations', label: 'Annotations' },
  { id: 'artifacts', label: 'Artifacts' },
  { id: 'policies', label: 'Policies' },
  { id: 'test-reports', label: 'Test reports' },
  { id: 'saved-searches', label: 'Saved searches' },
  { id: 'rules', label: 'Rules' },
  { id: 'sync', label: 'Sync' },
] as const;
export type ViewId = (typeof VIEWS)[number]['id'];

export const DEFAULT_VIEW: ViewId = 'annotations';

export function viewFromHash(hash: string): ViewId {
  const id = hash.replace(/^#\/?/, '').split(/[/?&]/)[0];
  return (VIEWS.find((v) => v.id === id)?.id ?? DEFAULT_VIEW) as ViewId;
}

export function hashOf(view: ViewId): string {
  return `#/${view}`;
}

export class NavigationState {
  view = $state<ViewId>(DEFAULT_VIEW);
  /** A query for the annotations view to apply when it opens (from a saved search). */
  pendingAnnotationQuery = $state<AnnotationQuery | undefined>();
  /** An annotation for that view to open in its detail pane (from the Sync view). */
  pendingAnnotationId = $state<string | undefined>();

  /** A rule for the rules view to show, and the condition to point at (from an annotation a rule made). */
  pendingRule = $state.raw<{ rule: Rule; conditionId: string } | undefined>();

  constructor(hash = '') {
    this.view = viewFromHash(hash);
  }

  go(view: ViewId): void {
    this.view = view;
  }

  /** Shows the annotations view listing `query`, with annotation `annotationId` open in its detail pane if given. */
  openAnnotations(query: AnnotationQuery, annotationId?: string): void {
    this.pendingAnnotationQuery = query;
    this.pendingAnnotationId = annotationId;
    this.view = 'annotations';
  }

  /** The pending query, once (the annotations view applies it). */
  takeAnnotationQuery(): AnnotationQuery | undefined {
    const query = this.pendingAnnotationQuery;
    this.pendingAnnotationQuery = undefined;
    return query;
  }

  /** Shows the rules view with `rule` open and `conditionId` marked. */
  openRule(rule: Rule, conditionId: string): void {
    this.pendingRule = { rule, conditionId };
    this.view = 'rules';
  }

  takeRuleToOpen(): { rule: Rule; conditionId: string } | undefined {
    const pending = this.pendingRule;
    this.pendingRule = undefined;
    return pending;
  }

  /** The annotation to open, once (the annotations view opens it). */
  takeAnnotationToOpen(): string | undefined {
    const id = this.pendingAnnotationId;
    this.pendingAnnotationId = undefined;
    return id;
  }
}
