/**
 * "Isolate automatically": the sites whose links open in isolation, the domains always
 * isolated and never isolated, ask first; what that means in words, and the host access it
 * needs to open what it stops in isolation (requested from a click here).
 */
import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { ALL_SITES, AUTO_ISOLATE_LIMITS, autoIsolateOf, toDomainsAccess, type AutoIsolate } from '../../autoisolate';
import { t, type MessageKey } from '../../i18n';
import { Button } from '../common/Button';
import { CheckField, Field, fieldDescription, useFieldIds } from '../common/fields';
import { NoticeLine } from '../common/NoticeLine';
import { errorNotice, infoNotice, okNotice } from '../common/notice';
import { useTask } from '../common/task';
import { configOf, draftOf, LIST_KEYS, type AutoIsolateDraft, type ListKey, type ParsedList } from './autoisolate-draft';
import { useDraft } from './draft';
import { failed } from './errors';
import { Section } from './Section';
import { isLocked, type SectionProps } from './state';

const LIST_WORDS: { readonly [K in ListKey]: { readonly label: MessageKey; readonly hint: MessageKey } } = {
  from: { label: 'optionsAutoFrom', hint: 'optionsAutoFromHint' },
  to: { label: 'optionsAutoTo', hint: 'optionsAutoToHint' },
  except: { label: 'optionsAutoExcept', hint: 'optionsAutoExceptHint' },
};

/** A list's problem in words, or undefined. */
function listError(list: ParsedList, key: ListKey): string | undefined {
  if (list.bad.length > 0) return t('optionsAutoBadEntries', list.bad.slice(0, 3).join(', '));
  if (list.tooMany) return t('optionsAutoTooMany', String(AUTO_ISOLATE_LIMITS[key]));
  return undefined;
}

function ListField({
  name,
  value,
  locked,
  error,
  onInput,
}: {
  name: ListKey;
  value: string;
  locked: boolean;
  error: string | undefined;
  onInput: (value: string) => void;
}) {
  const ids = useFieldIds();
  const hint = t(LIST_WORDS[name].hint);
  return (
    <Field ids={ids} label={t(LIST_WORDS[name].label)} locked={locked} hint={hint} error={error}>
      <textarea
        id={ids.input}
        rows={3}
        value={value}
        spellcheck={false}
        autocomplete="off"
        disabled={locked}
        aria-invalid={error !== undefined}
        aria-describedby={fieldDescription(ids, { hint, error, locked })}
        onInput={(event) => {
          onInput(event.currentTarget.value);
        }}
      />
    </Field>
  );
}

/** What a configuration does, one sentence a list (and the first few of each). */
function Preview({ config }: { readonly config: AutoIsolate }) {
  const few = (list: readonly string[]): string =>
    list.length > 3 ? t('optionsAutoAndMore', [list.slice(0, 3).join(', '), String(list.length - 3)]) : list.join(', ');
  const lines: string[] = [];
  if (config.from.length > 0) lines.push(t('optionsAutoPreviewFrom', few(config.from)));
  if (config.to.length > 0) lines.push(t('optionsAutoPreviewTo', few(config.to)));
  if (lines.length === 0) lines.push(t('optionsAutoPreviewOff'));
  else {
    if (config.except.length > 0) lines.push(t('optionsAutoPreviewExcept', few(config.except)));
    lines.push(t(config.ask ? 'optionsAutoPreviewAsk' : 'optionsAutoPreviewAtOnce'));
  }
  return (
    <div class="auto-preview" aria-live="polite">
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
    </div>
  );
}

/** The host permissions the configuration in force needs and lacks: every site (from), or its to domains. */
function useMissingAccess(config: AutoIsolate): { readonly missing: string[] | null; readonly recheck: () => void } {
  const [missing, setMissing] = useState<string[] | null>(null);
  const [round, setRound] = useState(0);
  const key = JSON.stringify(config);
  useEffect(() => {
    let live = true;
    const wanted = config.from.length > 0 ? [...ALL_SITES] : toDomainsAccess(config);
    const check = wanted.length === 0 ? Promise.resolve(true) : browser.permissions.contains({ origins: wanted });
    void check.then(
      (granted) => {
        if (live) setMissing(granted ? [] : wanted);
      },
      () => {
        if (live) setMissing(wanted);
      },
    );
    return () => {
      live = false;
    };
    // The configuration's value, not its identity, decides.
  }, [key, round]);
  return {
    missing,
    recheck: () => {
      setRound((n) => n + 1);
    },
  };
}

export function AutoIsolateSection({ state, view }: SectionProps) {
  const saved = autoIsolateOf(view.settings.autoIsolate);
  const { draft, update, mark, settle } = useDraft<AutoIsolateDraft>(() => draftOf(saved));
  const task = useTask(failed);
  const locked = isLocked(view, 'autoIsolate');
  const { config, lists } = configOf(draft);
  const access = useMissingAccess(saved);

  function save(event: Event): void {
    event.preventDefault();
    if (task.busy.value || locked) return;
    if (config === null) {
      task.notice.value = errorNotice(t('optionsFixFields'));
      return;
    }
    if (JSON.stringify(config) === JSON.stringify(saved)) {
      task.notice.value = infoNotice(t('optionsNothingChanged'));
      return;
    }
    const edits = mark();
    void task.run(async () => {
      const next = await state.saveSettings({ autoIsolate: config });
      settle(edits, draftOf(autoIsolateOf(next.settings.autoIsolate)));
      return okNotice(t('optionsAutoSaved'));
    });
  }

  function grant(): void {
    const wanted = access.missing;
    if (wanted === null || wanted.length === 0) return;
    // Called at once in the click handler: the browser asks only during a user gesture.
    const request = browser.permissions.request({ origins: wanted });
    void task.run(async () => {
      const granted = await request;
      access.recheck();
      return granted ? okNotice(t('optionsAutoAccessGranted')) : errorNotice(t('optionsAutoAccessRefused'));
    });
  }

  return (
    <Section id="auto-isolate" title={t('optionsAutoIsolateTitle')}>
      <p class="muted">{t('optionsAutoIntro')}</p>
      <form onSubmit={save} noValidate>
        {LIST_KEYS.map((key) => (
          <ListField
            key={key}
            name={key}
            value={draft[key]}
            locked={locked}
            error={listError(lists[key], key)}
            onInput={(value) => {
              update({ [key]: value });
            }}
          />
        ))}
        <CheckField
          label={t('optionsAutoAsk')}
          hint={t('optionsAutoAskHint')}
          locked={locked}
          checked={draft.ask}
          onChange={(checked) => {
            update({ ask: checked });
          }}
        />
        <Preview config={config ?? saved} />
        {!locked && (
          <div class="actions">
            <Button type="submit" class="primary" busy={task.busy.value}>
              {t('optionsAutoSave')}
            </Button>
          </div>
        )}
      </form>
      {access.missing !== null && access.missing.length > 0 && (
        <div class="auto-access" role="note">
          <p>{t(saved.from.length > 0 ? 'optionsAutoAccessAll' : 'optionsAutoAccessTo')}</p>
          <Button onClick={grant} busy={task.busy.value}>
            {t('optionsAutoAccessButton')}
          </Button>
        </div>
      )}
      <NoticeLine notice={task.notice.value} />
    </Section>
  );
}
