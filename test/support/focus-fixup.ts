/**
 * The HTML "focus fixup rule", which happy-dom lacks: when the focused element stops
 * being focusable (here, it becomes disabled), focus goes back to the body. Browsers do
 * this, and it is why a busy button must not be disabled: with this installed, a test
 * that focus stays on a button fails in happy-dom as it would in a browser.
 */
export function installFocusFixup(): () => void {
  const observer = new MutationObserver(() => {
    const active = document.activeElement;
    if (!(active instanceof HTMLElement) || !active.hasAttribute('disabled')) return;
    // happy-dom does not blur a disabled element: focus a stand-in, then remove it.
    const standIn = document.createElement('span');
    standIn.tabIndex = -1;
    document.body.append(standIn);
    standIn.focus();
    standIn.remove();
  });
  observer.observe(document.body, { subtree: true, attributes: true, attributeFilter: ['disabled'] });
  return () => {
    observer.disconnect();
  };
}
