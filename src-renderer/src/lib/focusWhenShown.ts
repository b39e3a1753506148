// Focus for a control that is about to render: a command that opens a form or a
// detail puts the focus in it once it exists (a frame or a few; keys typed
// meanwhile are held for it, see keyboard/keyHold.ts).

/** Focuses the element `selector` names as soon as it is rendered, trying for up to `frames` animation frames. */
export function focusWhenShown(selector: string, frames = 30): void {
  let left = frames;
  const attempt = () => {
    const el = document.querySelector<HTMLElement>(selector);
    if (el) el.focus();
    else if (--left > 0) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}
