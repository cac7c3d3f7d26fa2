/** Connection: service and launch URLs, the admin token, identity, test and host access. */
import { useId, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { t } from '../../i18n';
import type { Settings, Status } from '../../messaging/protocol';
import { settingShapes } from '../../settings/schema';
import { errorField, errorText } from './errors';
import { Field, LockedNote, NoticeLine, Section, fieldDescription, useFieldIds, type Notice } from './fields';
import { isLocked, type SectionProps } from './state';

type Identity = 'username' | 'org';
type TextKey = 'serviceUrl' | 'launchUrl' | 'username' | 'org';
const TEXT_KEYS: readonly TextKey[] = ['serviceUrl', 'launchUrl', 'username', 'org'];

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
  const [draft, setDraft] = useState(() => draftOf(view.settings));
  const [errors, setErrors] = useState<Partial<Record<TextKey, string>>>({});
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = {
    serviceUrl: useFieldIds(),
    launchUrl: useFieldIds(),
    username: useFieldIds(),
    org: useFieldIds(),
    token: useFieldIds(),
  };
  const identityLegend = useId();
  const rememberNote = useId();

  const locked = (key: TextKey | 'rememberToken') => isLocked(view, key);
  const identityLocked = locked('username') || locked('org');
  const tokenLocked = view.tokenManaged;
  const update = (change: Partial<Draft>) => {
    setDraft((current) => ({ ...current, ...change }));
  };

  async function run(task: () => Promise<Notice>): Promise<void> {
    setBusy(true);
    try {
      setNotice(await task());
    } catch (error) {
      setNotice({ kind: 'error', text: errorText(error) });
      const field = errorField(error);
      if (field !== undefined && (TEXT_KEYS as readonly string[]).includes(field)) setErrors({ [field]: errorText(error) });
    } finally {
      setBusy(false);
    }
  }

  function save(event: Event): void {
    event.preventDefault();
    if (busy) return;
    const current = view.settings;
    const wanted = wantedOf(draft);
    const patch: Partial<Record<TextKey, string>> = {};
    const found: Partial<Record<TextKey, string>> = {};
    for (const key of TEXT_KEYS) {
      if (locked(key) || (identityLocked && (key === 'username' || key === 'org'))) continue;
      if (wanted[key] === current[key]) continue;
      const parsed = settingShapes[key].safeParse(wanted[key]);
      if (parsed.success) patch[key] = wanted[key];
      else found[key] = t('optionsFieldInvalid', parsed.error.issues[0]?.message ?? '');
    }
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setNotice({ kind: 'error', text: t('optionsFixFields') });
      return;
    }
    const token = tokenLocked ? '' : draft.token.trim();
    const rememberChanged = !locked('rememberToken') && !tokenLocked && draft.remember !== current.rememberToken;
    const hasPatch = Object.keys(patch).length > 0;
    if (!hasPatch && token === '' && !rememberChanged) {
      setNotice({ kind: 'info', text: t('optionsNothingChanged') });
      return;
    }
    void run(async () => {
      let settings = current;
      if (hasPatch) {
        const next = await state.connector('saveSettings', { patch });
        state.setView(next);
        settings = next.settings;
      }
      if (token !== '') {
        state.setStatus(await state.connector('setToken', { token, remember: draft.remember }));
        update({ token: '' });
      } else if (rememberChanged) {
        state.setStatus(await state.connector('setRemember', { remember: draft.remember }));
      }
      if (token !== '' || rememberChanged) settings = (await state.refreshSettings()).settings;
      else await state.refreshStatus();
      setDraft(draftOf(settings));
      return { kind: 'ok', text: t('optionsSaved') };
    });
  }

  function testConnection(): void {
    void run(async () => {
      const result = await state.connector('testConnection', {});
      return { kind: 'ok', text: result.message };
    });
  }

  function forgetToken(): void {
    void run(async () => {
      state.setStatus(await state.connector('clearToken', {}));
      return { kind: 'ok', text: t('optionsTokenForgotten') };
    });
  }

  const grantOrigin = originToGrant(status, view.settings.serviceUrl);

  function grantAccess(): void {
    if (grantOrigin === null) return;
    // Called at once in the click handler: the browser asks only during a user gesture.
    const request = browser.permissions.request({ origins: [`${grantOrigin}/*`] });
    void run(async () => {
      const granted = await request;
      await state.refreshStatus();
      return granted ? { kind: 'ok', text: t('optionsAccessGranted', grantOrigin) } : { kind: 'error', text: t('optionsAccessRefused', grantOrigin) };
    });
  }

  const textField = (key: TextKey, label: string, options: { url?: boolean; placeholder?: string; hint?: string | undefined; disabled?: boolean }) => {
    const fieldIds = ids[key];
    const keyLocked = locked(key);
    const error = errors[key];
    return (
      <Field ids={fieldIds} label={label} locked={keyLocked} hint={options.hint} error={error}>
        <input
          id={fieldIds.input}
          type="text"
          inputMode={options.url === true ? 'url' : undefined}
          value={draft[key]}
          placeholder={options.placeholder}
          disabled={keyLocked || options.disabled === true}
          spellcheck={false}
          autocomplete="off"
          aria-invalid={error !== undefined}
          aria-describedby={fieldDescription(fieldIds, { hint: options.hint, error, locked: keyLocked })}
          onInput={(event) => {
            const value = event.currentTarget.value;
            update(key === 'username' || key === 'org' ? { [key]: value, identity: key } : { [key]: value });
          }}
        />
      </Field>
    );
  };

  return (
    <Section id="connection" title={t('optionsConnectionTitle')}>
      <form onSubmit={save} noValidate>
        {textField('serviceUrl', t('optionsServiceUrl'), { url: true, placeholder: 'https://isolation.example.com', hint: t('optionsServiceUrlHint') })}
        {textField('launchUrl', t('optionsLaunchUrl'), { url: true, placeholder: t('optionsLaunchUrlPlaceholder'), hint: t('optionsLaunchUrlHint') })}

        <fieldset class="identity" aria-describedby={identityLocked ? `${identityLegend}-locked` : undefined}>
          <legend id={identityLegend}>
            {t('optionsIdentity')} {identityLocked && <LockedNote id={`${identityLegend}-locked`} />}
          </legend>
          <p class="muted hint">{t('optionsIdentityHint')}</p>
          <div class="row">
            <label class="inline">
              <input
                type="radio"
                name="identity"
                checked={draft.identity === 'username'}
                disabled={identityLocked}
                onChange={() => {
                  update({ identity: 'username' });
                }}
              />
              {t('optionsIdentityByUsername')}
            </label>
            <label class="inline">
              <input
                type="radio"
                name="identity"
                checked={draft.identity === 'org'}
                disabled={identityLocked}
                onChange={() => {
                  update({ identity: 'org' });
                }}
              />
              {t('optionsIdentityByOrg')}
            </label>
          </div>
          {textField('username', t('optionsUsername'), {
            disabled: identityLocked,
            hint: draft.identity === 'username' ? undefined : t('optionsIdentityUnused'),
          })}
          {textField('org', t('optionsOrganisation'), {
            disabled: identityLocked,
            hint: draft.identity === 'org' ? t('optionsOrganisationHint') : t('optionsIdentityUnused'),
          })}
        </fieldset>

        <Field ids={ids.token} label={t('optionsAdminToken')} locked={tokenLocked} hint={tokenNote(status)}>
          <input
            id={ids.token.input}
            type="password"
            value={draft.token}
            disabled={tokenLocked}
            autocomplete="new-password"
            spellcheck={false}
            aria-describedby={fieldDescription(ids.token, { hint: '', locked: tokenLocked })}
            onInput={(event) => {
              update({ token: event.currentTarget.value });
            }}
          />
        </Field>
        {status.hasToken && status.tokenSource !== 'managed' && (
          <button type="button" disabled={busy} onClick={forgetToken}>
            {t('optionsForgetToken')}
          </button>
        )}
        <div class="check">
          <label class="inline">
            <input
              type="checkbox"
              checked={draft.remember}
              disabled={locked('rememberToken') || tokenLocked}
              aria-describedby={rememberNote}
              onChange={(event) => {
                update({ remember: event.currentTarget.checked });
              }}
            />
            {t('optionsRemember')}
          </label>
          {locked('rememberToken') && <LockedNote id={`${rememberNote}-locked`} />}
          <p id={rememberNote} class="muted hint">
            {t('optionsRememberNote')}
          </p>
        </div>

        <div class="row actions">
          <button type="submit" class="primary" disabled={busy}>
            {t('optionsSave')}
          </button>
          <button type="button" disabled={busy} onClick={testConnection}>
            {t('optionsTestConnection')}
          </button>
          {grantOrigin !== null && (
            <button type="button" disabled={busy} onClick={grantAccess}>
              {t('optionsGrantAccess')}
            </button>
          )}
        </div>
        {grantOrigin !== null && <p class="muted hint">{t('optionsGrantAccessHint', grantOrigin)}</p>}
        <p class="muted hint">{t('optionsTestHint')}</p>
        <NoticeLine notice={notice} />
      </form>
    </Section>
  );
}
