/**
 * Keeping focus when the focused control goes away (an item removed from a list): it
 * moves to the same control of the next item, else of the previous one, else to `fallback`.
 */
export function focusNeighbour(current: HTMLElement, peers: Iterable<HTMLElement>, fallback: HTMLElement | null | undefined): void {
  const list = [...peers];
  const index = list.indexOf(current);
  const target = (index < 0 ? undefined : (list[index + 1] ?? list[index - 1])) ?? fallback;
  target?.focus();
}
