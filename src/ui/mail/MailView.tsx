/**
 * The mail read: who it claims to be from, its subject and date, what it would load, what
 * was left unread, and its links with the actions on the selected ones.
 */
import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';
import { t } from '../../i18n';
import type { MailLink, MailReport } from '../../readers';
import type { TargetRow } from '../../readers/targets';
import { Button } from '../common/Button';
import { ConfirmStep } from '../common/ConfirmStep';
import { NoticeLine } from '../common/NoticeLine';
import { localTime } from '../popup/time';
import { FilesView } from './FilesView';
import { LinkRow } from './LinkRow';
import { Address, SenderView } from './SenderView';
import type { MailState, ReadMode } from './state';
import { problemText } from './words';

/** The date as the analyst's locale writes it; as the mail wrote it when it is not one. */
function dateText(date: string | null): string {
  if (date === null) return t('mailAbsent');
  const ms = Date.parse(date);
  return Number.isNaN(ms) ? date : localTime(ms);
}

function Facts({ report }: { readonly report: MailReport }) {
  return (
    <dl class="facts">
      <dt>{t('mailFrom')}</dt>
      <dd>{report.reportedBy === null && report.sender.from !== null ? <Address address={report.sender.from} /> : (report.from ?? t('mailAbsent'))}</dd>
      <dt>{t('mailSubject')}</dt>
      <dd>{report.subject ?? t('mailAbsent')}</dd>
      <dt>{t('mailDate')}</dt>
      <dd>{dateText(report.date)}</dd>
    </dl>
  );
}

function Problems({ report, id }: { readonly report: MailReport; readonly id: string }) {
  if (report.problems.length === 0) return null;
  return (
    <div class="problems" role="region" aria-labelledby={`${id}-problems-heading`}>
      <h3 id={`${id}-problems-heading`} class="warn">
        {t('mailProblemsHeading')}
      </h3>
      <ul>
        {report.problems.map((problem, index) => (
          <li key={`${String(index)} ${problem.code}`}>{problemText(problem)}</li>
        ))}
      </ul>
    </div>
  );
}

/** Where the settings ask and a link is wrapped: the real targets, or the links as written (read again). */
function WrappedChoice({ state }: { readonly state: MailState }) {
  if (!state.asking.value) return null;
  return (
    <fieldset>
      <legend>{t('mailWrappedChoice')}</legend>
      {(['unwrap', 'keep'] as const satisfies readonly ReadMode[]).map((value) => (
        <label key={value} class="inline">
          <input
            type="radio"
            name="mail-wrapped"
            value={value}
            checked={state.choice.value === value}
            onChange={() => {
              void state.chooseWrapped(value);
            }}
          />
          {value === 'unwrap' ? t('mailChoiceReal') : t('mailChoiceWrapper')}
        </label>
      ))}
    </fieldset>
  );
}

function Results({ state }: { readonly state: MailState }) {
  const result = state.result.value;
  if (result === null) return null;
  return (
    <section class="results stack" aria-labelledby="mail-created">
      <h3 id="mail-created">{t('mailCreated', String(result.created.length))}</h3>
      {result.created.length > 0 && (
        <ul class="plain">
          {result.created.map((context) => (
            <li key={context.id}>
              <span class="mono">{context.url}</span>
            </li>
          ))}
        </ul>
      )}
      {result.failures.length > 0 && (
        <>
          <h3 class="error">{t('mailFailed', String(result.failures.length))}</h3>
          <ul class="plain">
            {result.failures.map((failure, index) => (
              <li key={`${String(index)} ${failure.url}`}>
                <span class="mono">{failure.url}</span> <span class="error">{failure.error}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function Actions({ state }: { readonly state: MailState }) {
  const openButton = useRef<HTMLButtonElement>(null);
  const busy = state.busy.value;
  const count = state.chosen.value.length;
  return (
    <>
      <div class="row actions">
        <Button ref={openButton} class="primary" busy={busy} unavailable={state.confirming.value} onClick={() => void state.openSelected()}>
          {t('mailOpenSelected')}
        </Button>
        <Button busy={busy} onClick={() => void state.copySelected()}>
          {t('mailCopySelected')}
        </Button>
        <span class="muted" role="status">
          {busy ? t('mailWorking') : t('mailSelectedCount', String(count))}
        </span>
      </div>
      {state.confirming.value && (
        <ConfirmStep
          question={t('mailConfirmQuestion', String(count))}
          confirmLabel={t('mailConfirmButton', String(count))}
          cancelLabel={t('mailCancel')}
          busy={busy}
          returnFocus={openButton}
          onConfirm={() => void state.confirmOpen()}
          onCancel={state.cancelOpen}
        />
      )}
      <NoticeLine notice={state.notice.value} />
      <Results state={state} />
    </>
  );
}

/**
 * The links read (a mail's, an image's codes', or the targets of several mails with their
 * tallies), each with its checkbox, and the actions on the selected ones.
 */
export function Links({
  state,
  mode,
  links,
  tallies,
}: {
  readonly state: MailState;
  readonly mode: ReadMode;
  readonly links: readonly MailLink[];
  readonly tallies?: readonly TargetRow[];
}) {
  const selected = state.selected.value;
  return (
    <section class="stack" aria-labelledby="mail-links-heading">
      <h2 id="mail-links-heading">{tallies === undefined ? t('mailLinksHeading', String(links.length)) : t('mailTargetsHeading', String(links.length))}</h2>
      {links.length === 0 ? (
        <p>{t('mailNoLinks')}</p>
      ) : (
        <>
          <WrappedChoice state={state} />
          <ul class="links" aria-labelledby="mail-links-heading">
            {links.map((link, index) => (
              <LinkRow
                key={`${String(index)} ${link.url}`}
                link={link}
                index={index}
                mode={mode}
                checked={selected.has(index)}
                onToggle={state.toggle}
                tally={tallies?.[index]}
              />
            ))}
          </ul>
          <Actions state={state} />
        </>
      )}
    </section>
  );
}

/** One mail's facts, sender's story, remote content, files and parts left unread; `id` prefixes its ids (one per mail shown). */
export function MailCard({
  name,
  report,
  id = 'mail',
  children,
}: {
  readonly name: string;
  readonly report: MailReport;
  readonly id?: string;
  readonly children?: ComponentChildren;
}) {
  return (
    <section class="card stack" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t('mailReportHeading', name)}</h2>
      <Facts report={report} />
      <SenderView report={report} id={id} />
      <p class="small">{report.remoteContent > 0 ? t('mailRemote', String(report.remoteContent)) : t('mailRemoteNone')}</p>
      <FilesView files={report.attachments} id={id} />
      <Problems report={report} id={id} />
      {children}
    </section>
  );
}

export function MailView({
  state,
  name,
  report,
  mode,
}: {
  readonly state: MailState;
  readonly name: string;
  readonly report: MailReport;
  readonly mode: ReadMode;
}) {
  return (
    <>
      <MailCard name={name} report={report}>
        <div class="row actions">
          <Button onClick={() => void state.copyNote()}>{t('mailCopyNote')}</Button>
          <NoticeLine notice={state.noteNotice.value} />
        </div>
      </MailCard>
      <Links state={state} mode={mode} links={report.links} />
    </>
  );
}
