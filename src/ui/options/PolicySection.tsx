/** Policy defaults: one control per type of POLICY_RULES, chosen by the type's rule. */
import { useState } from 'preact/hooks';
import { t } from '../../i18n';
import { codeText } from '../../i18n/errors';
import { KNOWN_POLICY_TYPES, POLICY_RULES, PolicyIssue, normalizePolicy, type KnownPolicyType, type PolicyRule } from '../../policy';
import { Button } from '../common/Button';
import { NoticeLine } from '../common/NoticeLine';
import { errorNotice, okNotice } from '../common/notice';
import { useTask } from '../common/task';
import { DomainListEditor } from './DomainListEditor';
import { useDraft } from './draft';
import { failed } from './errors';
import { ChoiceControl, ColorControl, MultiControl, type ControlProps } from './PolicyControls';
import { draftFromEntries, entriesFromDraft, entryIndexOf } from './policy-draft';
import { RibbonMessageControl, RibbonPreview } from './RibbonControls';
import { Section } from './Section';
import { isLocked, type SectionProps } from './state';

function Control(props: ControlProps) {
  const rule: PolicyRule = POLICY_RULES[props.type];
  switch (rule.kind) {
    case 'choice':
      return <ChoiceControl {...props} values={rule.values} defaultValue={rule.defaultValue} />;
    case 'multi':
      return <MultiControl {...props} values={rule.values} exclusive={rule.exclusive} />;
    case 'domains':
      return props.type === 'domain_allow' || props.type === 'domain_block' ? <DomainListEditor {...props} type={props.type} /> : null;
    case 'color':
      return <ColorControl {...props} />;
    case 'text':
      return <RibbonMessageControl {...props} />;
  }
}

export function PolicySection({ state, view }: SectionProps) {
  const { draft, update, mark, settle } = useDraft(() => draftFromEntries(view.settings.policy));
  const [issue, setIssue] = useState<{ readonly type: KnownPolicyType | undefined; readonly text: string } | null>(null);
  const task = useTask(failed);
  const busy = task.busy.value;
  const locked = isLocked(view, 'policy');

  function change(type: KnownPolicyType, params: string[]): void {
    update((current) => ({ known: { ...current.known, [type]: params } }));
    if (issue?.type === type) setIssue(null);
  }

  function save(event: Event): void {
    event.preventDefault();
    if (task.busy.value || locked) return;
    const entries = entriesFromDraft(draft);
    const normalized = normalizePolicy(entries, 'policy');
    if (normalized instanceof PolicyIssue) {
      const index = entryIndexOf(normalized.path);
      const type = index === undefined ? undefined : entries[index]?.type;
      const text = t('optionsPolicyIssue', codeText(normalized.code, normalized.params));
      setIssue({ type: KNOWN_POLICY_TYPES.find((known) => known === type), text });
      task.notice.value = errorNotice(text);
      return;
    }
    setIssue(null);
    const edits = mark();
    void task.run(async () => {
      const next = await state.saveSettings({ policy: normalized });
      settle(edits, draftFromEntries(next.settings.policy));
      return okNotice(t('optionsPolicySaved'));
    });
  }

  return (
    <Section id="policy" title={t('optionsPolicyTitle')}>
      <p class="muted">{t('optionsPolicyIntro')}</p>
      <form onSubmit={save} noValidate>
        {KNOWN_POLICY_TYPES.map((type) => (
          <Control
            key={type}
            type={type}
            params={draft.known[type]}
            locked={locked}
            error={issue?.type === type ? issue.text : undefined}
            onChange={(params) => {
              change(type, params);
            }}
          />
        ))}
        <RibbonPreview
          background={draft.known.ribbon_background_color[0] ?? ''}
          text={draft.known.ribbon_text_color[0] ?? ''}
          message={draft.known.ribbon_message[0] ?? ''}
        />
        {draft.others.length > 0 && (
          <div class="field others">
            <h3>{t('optionsPolicyOthers')}</h3>
            <p class="muted hint">{t('optionsPolicyOthersHint')}</p>
            <ul>
              {draft.others.map((entry, index) => (
                <li key={index}>
                  <span class="mono">{entry.type}</span>: <span class="mono">{entry.params.join(', ')}</span>
                </li>
              ))}
            </ul>
          </div>
        )}
        <div class="row actions">
          <Button type="submit" class="primary" busy={busy} disabled={locked}>
            {t('optionsPolicySave')}
          </Button>
        </div>
        <NoticeLine notice={task.notice.value} />
      </form>
    </Section>
  );
}
