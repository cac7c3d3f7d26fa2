/**
 * One link of the mail: a checkbox named by its real target (the host in bold), what the
 * mail showed for it, a warning when that text names another site, what wrapped it and
 * where it was found. A refused link has no checkbox and says why.
 */
import { wrapperNamesOf } from '../../fang/ids';
import { t } from '../../i18n';
import { refusedUrlText } from '../../i18n/errors';
import type { MailLink } from '../../readers';
import type { TargetRow } from '../../readers/targets';
import { localTime } from '../popup/time';
import type { ReadMode } from './state';
import { placeText } from './words';

/** Longest link shown as written (a refused `data:` link may be megabytes). */
const MAX_SHOWN_URL = 500;

function clip(text: string): string {
  return text.length > MAX_SHOWN_URL ? `${text.slice(0, MAX_SHOWN_URL)}…` : text;
}

/** A URL cut around its host (port included); null when the host cannot be found in it as written. */
export function splitHost(href: string): { readonly before: string; readonly host: string; readonly after: string } | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  if (url.host === '') return null;
  const auth = url.username !== '' || url.password !== '' ? `${url.username}${url.password === '' ? '' : `:${url.password}`}@` : '';
  const before = `${url.protocol}//${auth}`;
  if (!href.startsWith(before + url.host)) return null;
  return { before, host: url.host, after: href.slice(before.length + url.host.length) };
}

/** The URL with its host emphasised: where the link really goes, at a glance. */
function HostedUrl({ href }: { readonly href: string }) {
  const parts = splitHost(href);
  if (parts === null) return <>{href}</>;
  return (
    <>
      {parts.before}
      <strong class="host">{parts.host}</strong>
      {parts.after}
    </>
  );
}

function hostOf(href: string): string {
  try {
    return new URL(href).hostname;
  } catch {
    return href;
  }
}

/** What wrapped the link, and what that means for what opens. */
function wrappedText(link: MailLink, mode: ReadMode): string | null {
  if (link.wrappedBy.length === 0) return null;
  const names = wrapperNamesOf(link.wrappedBy);
  if (link.opaque) return t('mailOpaque', names);
  return mode === 'keep' ? t('mailWrappedKept', names) : t('mailWrapped', names);
}

/** Most mail names shown on a target of several mails (the count says how many hold it). */
const MAX_SHOWN_FILES = 10;

/** A target of several mails: which mails hold it, when they are dated, a wrapper seen in some. */
function Tally({ link, tally }: { readonly link: MailLink; readonly tally: TargetRow }) {
  const shown = tally.files.slice(0, MAX_SHOWN_FILES).join(', ');
  const more = tally.mails - Math.min(tally.files.length, MAX_SHOWN_FILES);
  const { first, last } = tally;
  return (
    <>
      <p class="small">
        <strong>{tally.mails === 1 ? t('mailTargetInOne', shown) : t('mailTargetIn', [String(tally.mails), shown])}</strong>
        {more > 0 && ` ${t('mailManyMore', String(more))}`}
      </p>
      {first !== null && last !== null && (
        <p class="small muted">
          {first === last
            ? t('mailTargetDated', localTime(Date.parse(first)))
            : t('mailTargetDates', [localTime(Date.parse(first)), localTime(Date.parse(last))])}
        </p>
      )}
      {tally.flags.includes('wrapped') && link.wrappedBy.length === 0 && <p class="small">{t('mailTargetWrappedSome')}</p>}
    </>
  );
}

interface Props {
  readonly link: MailLink;
  readonly index: number;
  readonly mode: ReadMode;
  readonly checked: boolean;
  readonly onToggle: (index: number, checked: boolean) => void;
  /** Its target among several mails: which hold it, their dates (instead of where it was found in one). */
  readonly tally?: TargetRow | undefined;
}

export function LinkRow({ link, index, mode, checked, onToggle, tally }: Props) {
  const id = `mail-link-${String(index)}`;
  const found = tally === undefined ? <p class="small muted">{t('mailFoundIn', link.where.map(placeText).join(', '))}</p> : <Tally link={link} tally={tally} />;
  // Named only by a script of the file: where the page would go when opened, shown nowhere by the mail.
  const script = link.scriptOnly && <p class="small script-only">{t('mailInScript')}</p>;
  const shown = link.shown !== null && !link.mismatch && <p class="small">{t('mailShown', link.shown)}</p>;
  if (link.target === null) {
    return (
      <li class="link refused">
        <p class="mono">{clip(link.url)}</p>
        <div class="about">
          <p class="error">{link.refused === undefined ? t('mailRefused') : refusedUrlText(link.refused.code, link.refused.params)}</p>
          {shown}
          {script}
          {found}
        </div>
      </li>
    );
  }
  const wrapped = wrappedText(link, mode);
  return (
    <li class={link.mismatch ? 'link mismatch' : 'link'}>
      <div class="pick">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          aria-describedby={`${id}-about`}
          onChange={(event) => {
            onToggle(index, event.currentTarget.checked);
          }}
        />
        <label for={id} class="target mono">
          <HostedUrl href={link.target} />
        </label>
      </div>
      <div id={`${id}-about`} class="about">
        {link.mismatch && link.shown !== null && (
          <p class="lie">
            <span aria-hidden="true">⚠ </span>
            {t('mailMismatch', [link.shown, hostOf(link.target)])}
          </p>
        )}
        {shown}
        {wrapped !== null && <p class="small">{wrapped}</p>}
        {script}
        {found}
      </div>
    </li>
  );
}
