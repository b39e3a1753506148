// The one breakpoint of the layout: below it a detail pane lies over its list instead of beside it. In em, so
// a larger browser font size (and zoom, which narrows the CSS viewport) switches earlier. The stylesheets
// repeat the same width in their `@media (max-width: 75em)` rules.
import { MediaQuery } from 'svelte/reactivity';

export const NARROW_QUERY = '(max-width: 75em)';

/** Whether the window is narrower than the breakpoint (reactive). */
export const NARROW = new MediaQuery(NARROW_QUERY);
