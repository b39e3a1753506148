// The app's address: which view is shown and, for the annotations view, the
// applied filter, sort, the Archived chip and the open record, all in the URL
// fragment (`#/annotations?q=state%20%3D%3D%20…&order=name&open=<id>`); for the
// other views the record open in their detail (`#/policies?open=<id>`). So a
// reload or a shared link shows the same, and back/forward step through it.
// The API key fragment (`#key=`) is consumed before this is read.
import { DEFAULT_SORT, orderByOf, type AnnotationQuery } from '../services/annotationService';
import { parseSort } from '../services/savedSearchService';

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

/** What the annotations view shows: its query and the annotation open in its detail. */
export interface AnnotationRoute extends AnnotationQuery {
  readonly showArchived: boolean;
  readonly open?: string;
}

export interface Route {
  readonly view: ViewId;
  readonly annotations: AnnotationRoute;
  /** The record open in another view's detail (the annotations view keeps its own in `annotations.open`). */
  readonly open?: string;
}

export const EMPTY_ANNOTATION_ROUTE: AnnotationRoute = { filter: '', sort: DEFAULT_SORT, showArchived: false };

export function parseRoute(hash: string): Route {
  const [path, query = ''] = hash.replace(/^#\/?/, '').split('?', 2);
  const id = path.split('/')[0];
  const view = (VIEWS.find((v) => v.id === id)?.id ?? DEFAULT_VIEW) as ViewId;
  const params = new URLSearchParams(query);
  const open = params.get('open') || undefined;
  if (view !== 'annotations') return { view, annotations: EMPTY_ANNOTATION_ROUTE, ...(open ? { open } : {}) };
  return {
    view,
    annotations: {
      filter: params.get('q') ?? '',
      sort: parseSort(params.get('order') ?? undefined),
      showArchived: params.get('archived') === '1',
      ...(open ? { open } : {}),
    },
  };
}

/** The fragment of `route`: the defaults are left out (`#/annotations` for an unfiltered list). */
export function formatRoute(route: Route): string {
  if (route.view !== 'annotations') return `#/${route.view}${route.open ? `?open=${encodeURIComponent(route.open)}` : ''}`;
  const a = route.annotations;
  const params = new URLSearchParams();
  if (a.filter) params.set('q', a.filter);
  if (!sameSort(a.sort, DEFAULT_SORT)) params.set('order', orderByOf(a.sort));
  if (a.showArchived) params.set('archived', '1');
  if (a.open) params.set('open', a.open);
  const query = params.toString().replace(/\+/g, '%20');
  return `#/annotations${query ? `?${query}` : ''}`;
}

/** Whether two routes list the same rows (the open record aside). */
export function sameQuery(a: AnnotationRoute, b: AnnotationRoute): boolean {
  return a.filter === b.filter && sameSort(a.sort, b.sort) && a.showArchived === b.showArchived;
}

function sameSort(a: AnnotationQuery['sort'], b: AnnotationQuery['sort']): boolean {
  return a.field === b.field && a.desc === b.desc;
}
