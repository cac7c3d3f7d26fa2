/** Connection: service and launch URLs, the admin token, identity, test and host access. */
import { useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { t, type MessageKey } from '../../i18n';
import { fieldProblemText } from '../../i18n/errors';
import type { Settings, Status } from '../../messaging/protocol';
import { hostPatternOf } from '../../net/url';
import { textSettingProblem } from '../../settings/limits';
import { Button } from '../common/Button';
import { CheckField, TextField } from '../common/fields';
import { FieldGroup } from '../common/groups';
import { NoticeLine } from '../common/NoticeLine';
import { errorField, errorNotice, infoNotice, okNotice, type Notice } from '../common/notice';
import { useTask } from '../common/task';
import { useDraft } from './draft';
import { errorText, failed } from './errors';
import { Section } from './Section';
import { isLocked, type SectionProps } from './state';

type Identity = 'username' | 'org';
type TextKey = 'serviceUrl' | 'launchUrl' | 'username' | 'org';
const TEXT_KEYS: readonly TextKey[] = ['serviceUrl', 'launchUrl', 'username', 'org'];
const IDENTITIES: readonly { readonly id: Identity; readonly label: MessageKey }[] = [
  { id: 'username', label: 'optionsIdentityByUsername' },
  { id: 'org', label: 'optionsIdentityByOrg' },
];

interface Draft {
  readonly serviceUrl: string;
  readonly launchUrl: string;
  readonly identity: Identity;
  readonly username: string;
  readonly org: string;
  readonly remember: boolean;
  /** Typed by the user; never filled from anywhere. */
  readonly token: string;
}

function draftOf(settings: Settings): Draft {
  return {
    serviceUrl: settings.serviceUrl,
    launchUrl: settings.launchUrl,
    identity: settings.org !== '' && settings.username === '' ? 'org' : 'username',
    username: settings.username,
    org: settings.org,
    remember: settings.rememberToken,
    token: '',
  };
}

/** The values the draft asks for: identity exclusive (the other one empty), spaces trimmed. */
function wantedOf(draft: Draft): Record<TextKey, string> {
  return {
    serviceUrl: draft.serviceUrl.trim(),
    launchUrl: draft.launchUrl.trim(),
    username: draft.identity === 'username' ? draft.username.trim() : '',
    org: draft.identity === 'org' ? draft.org.trim() : '',
  };
}

function tokenNote(status: Status): string {
  switch (status.tokenSource) {
    case 'managed':
      return t('optionsTokenSetManaged');
    case 'local':
      return t('optionsTokenSetLocal');
    case 'session':
      return t('optionsTokenSetSession');
    case null:
      return t('optionsTokenNone');
  }
}

/** The https origin the extension still needs access to, or null. */
function originToGrant(status: Status, serviceUrl: string): string | null {
  if (status.hostPermission) return null;
  let origin = status.serviceOrigin;
  if (origin === null && serviceUrl !== '') {
    try {
      origin = new URL(serviceUrl).origin;
    } catch {
      origin = null;
    }
  }
  return origin?.startsWith('https://') ? origin : null;
}

export function ConnectionSection({ state, view, status }: SectionProps) {
  const { draft, update, mark, settle, adjust } = useDraft(() => draftOf(view.settings));
  const [errors, setErrors] = useState<Partial<Record<TextKey, string>>>({});
  const task = useTask(failed);
  const busy = task.busy.value;

  const locked = (key: TextKey | 'rememberToken') => isLocked(view, key);
  const identityLocked = locked('username') || locked('org');
  const tokenLocked = view.tokenManaged;

  /** Runs a request; an error naming one of the fields is shown beside it too. */
  function run(work: () => Promise<Notice>): void {
    void task.run(work, (error) => {
      const field = errorField(error);
      if (field !== undefined && (TEXT_KEYS as readonly string[]).includes(field)) setErrors({ [field]: errorText(error) });
      return failed(error);
    });
  }

  function save(event: Event): void {
    event.preventDefault();
    if (task.busy.value) return;
    const current = view.settings;
    const wanted = wantedOf(draft);
    const patch: Partial<Record<TextKey, string>> = {};
    const found: Partial<Record<TextKey, string>> = {};
    for (const key of TEXT_KEYS) {
      if (locked(key) || (identityLocked && (key === 'username' || key === 'org'))) continue;
      if (wanted[key] === current[key]) continue;
      const problem = textSettingProblem(key, wanted[key]);
      if (problem === undefined) patch[key] = wanted[key];
      else found[key] = fieldProblemText(problem);
    }
    setErrors(found);
    if (Object.keys(found).length > 0) {
      task.notice.value = errorNotice(t('optionsFixFields'));
      return;
    }
    const sent = draft;
    const token = tokenLocked ? '' : sent.token.trim();
    const rememberChanged = !locked('rememberToken') && !tokenLocked && sent.remember !== current.rememberToken;
    const hasPatch = Object.keys(patch).length > 0;
    if (!hasPatch && token === '' && !rememberChanged) {
      task.notice.value = infoNotice(t('optionsNothingChanged'));
      return;
    }
    const edits = mark();
    run(async () => {
      let settings = current;
      if (hasPatch) settings = (await state.saveSettings(patch)).settings;
      if (token !== '') {
        state.setStatus(await state.connector('setToken', { token, remember: sent.remember }));
        // The token was taken: it leaves the field, unless another one was typed meanwhile.
        adjust((now) => (now.token === sent.token ? { ...now, token: '' } : now));
      } else if (rememberChanged) {
        state.setStatus(await state.connector('setRemember', { remember: sent.remember }));
      }
      if (token !== '' || rememberChanged) settings = (await state.refreshSettings()).settings;
      else await state.refreshStatus();
      settle(edits, draftOf(settings));
      return okNotice(t('optionsSaved'));
    });
  }

  function testConnection(): void {
    run(async () => okNotice((await state.connector('testConnection', {})).message));
  }

  function forgetToken(): void {
    run(async () => {
      state.setStatus(await state.connector('clearToken', {}));
      return okNotice(t('optionsTokenForgotten'));
    });
  }

  const grantOrigin = originToGrant(status, view.settings.serviceUrl);

  function grantAccess(): void {
    if (grantOrigin === null) return;
    // Called at once in the click handler: the browser asks only during a user gesture.
    const request = browser.permissions.request({ origins: [hostPatternOf(grantOrigin)] });
    run(async () => {
      const granted = await request;
      await state.refreshStatus();
      return granted ? okNotice(t('optionsAccessGranted', grantOrigin)) : errorNotice(t('optionsAccessRefused', grantOrigin));
    });
  }

  const textField = (key: TextKey, label: string, extra: { hint?: string | undefined; placeholder?: string; url?: boolean; disabled?: boolean }) => (
    <TextField
      label={label}
      locked={locked(key)}
      disabled={extra.disabled === true}
      inputMode={extra.url === true ? 'url' : undefined}
      placeholder={extra.placeholder}
      hint={extra.hint}
      error={errors[key]}
      value={draft[key]}
      onInput={(value) => {
        // Typing a name chooses that identity.
        update(key === 'username' || key === 'org' ? { [key]: value, identity: key } : { [key]: value });
      }}
    />
  );

  return (
    <Section id="connection" title={t('optionsConnectionTitle')}>
      <form onSubmit={save} noValidate>
        {textField('serviceUrl', t('optionsServiceUrl'), { url: true, placeholder: 'https://isolation.example.com', hint: t('optionsServiceUrlHint') })}
        {textField('launchUrl', t('optionsLaunchUrl'), { url: true, placeholder: t('optionsLaunchUrlPlaceholder'), hint: t('optionsLaunchUrlHint') })}

        <FieldGroup legend={t('optionsIdentity')} className="identity" locked={identityLocked} hint={t('optionsIdentityHint')}>
          <div class="row">
            {IDENTITIES.map((identity) => (
              <label key={identity.id} class="inline">
                <input
                  type="radio"
                  name="identity"
                  checked={draft.identity === identity.id}
                  disabled={identityLocked}
                  onChange={() => {
                    update({ identity: identity.id });
                  }}
                />
                {t(identity.label)}
              </label>
            ))}
          </div>
          {textField('username', t('optionsUsername'), {
            disabled: identityLocked,
            hint: draft.identity === 'username' ? undefined : t('optionsIdentityUnused'),
          })}
          {textField('org', t('optionsOrganisation'), {
            disabled: identityLocked,
            hint: draft.identity === 'org' ? t('optionsOrganisationHint') : t('optionsIdentityUnused'),
          })}
        </FieldGroup>

        <TextField
          type="password"
          label={t('optionsAdminToken')}
          locked={tokenLocked}
          hint={tokenNote(status)}
          value={draft.token}
          onInput={(value) => {
            update({ token: value });
          }}
        />
        {status.hasToken && status.tokenSource !== 'managed' && (
          <Button busy={busy} onClick={forgetToken}>
            {t('optionsForgetToken')}
          </Button>
        )}
        <CheckField
          label={t('optionsRemember')}
          locked={locked('rememberToken')}
          disabled={tokenLocked}
          hint={t('optionsRememberNote')}
          checked={draft.remember}
          onChange={(checked) => {
            update({ remember: checked });
          }}
        />

        <div class="row actions">
          <Button type="submit" class="primary" busy={busy}>
            {t('optionsSave')}
          </Button>
          <Button busy={busy} onClick={testConnection}>
            {t('optionsTestConnection')}
          </Button>
          {grantOrigin !== null && (
            <Button busy={busy} onClick={grantAccess}>
              {t('optionsGrantAccess')}
            </Button>
          )}
        </div>
        {grantOrigin !== null && <p class="muted hint">{t('optionsGrantAccessHint', grantOrigin)}</p>}
        <p class="muted hint">{t('optionsTestHint')}</p>
        <NoticeLine notice={task.notice.value} />
      </form>
    </Section>
  );
}
