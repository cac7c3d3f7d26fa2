import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';

export interface TabDef<T extends string> {
  readonly id: T;
  readonly label: string;
}

interface Props<T extends string> {
  readonly label: string;
  readonly tabs: readonly TabDef<T>[];
  readonly selected: T;
  /** The selected panel is still loading. */
  readonly busy?: boolean;
  readonly onSelect: (id: T) => void;
  readonly children: ComponentChildren;
}

const tabId = (id: string) => `tab-${id}`;
const panelId = (id: string) => `panel-${id}`;

/**
 * A tab bar with one panel (the selected one). Arrow keys, Home and End move between
 * tabs and select them; only the selected tab is in the Tab order.
 */
export function Tabs<T extends string>({ label, tabs, selected, busy = false, onSelect, children }: Props<T>) {
  const buttons = useRef(new Map<T, HTMLButtonElement>());

  function move(offset: number | 'first' | 'last'): void {
    const index = tabs.findIndex((tab) => tab.id === selected);
    const target = offset === 'first' ? tabs[0] : offset === 'last' ? tabs[tabs.length - 1] : tabs[(index + offset + tabs.length) % tabs.length];
    if (target === undefined) return;
    onSelect(target.id);
    buttons.current.get(target.id)?.focus();
  }

  function onKeyDown(event: KeyboardEvent): void {
    const moves: Record<string, number | 'first' | 'last'> = { ArrowRight: 1, ArrowLeft: -1, Home: 'first', End: 'last' };
    const offset = moves[event.key];
    if (offset === undefined) return;
    event.preventDefault();
    move(offset);
  }

  return (
    <>
      <div role="tablist" aria-label={label} class="tablist" onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={tabId(tab.id)}
            aria-selected={tab.id === selected}
            aria-controls={tab.id === selected ? panelId(tab.id) : undefined}
            tabIndex={tab.id === selected ? 0 : -1}
            ref={(element) => {
              if (element === null) buttons.current.delete(tab.id);
              else buttons.current.set(tab.id, element);
            }}
            onClick={() => {
              onSelect(tab.id);
            }}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={panelId(selected)} aria-labelledby={tabId(selected)} aria-busy={busy} class="panel">
        {children}
      </div>
    </>
  );
}
