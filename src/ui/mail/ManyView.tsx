/**
 * Several mails read together: how many were read and which could not be (each named with
 * why), what was skipped, their targets as one list (each with how many mails hold it and
 * which), and each mail read, its own card shown on demand. Every name is the file's, shown
 * as text.
 */
import { useState } from 'preact/hooks';
import { t } from '../../i18n';
import { refusedUrlText } from '../../i18n/errors';
import { MAIL_LIMITS } from '../../readers/limits';
import { Button } from '../common/Button';
import type { Notice } from '../common/notice';
import { NoticeLine } from '../common/NoticeLine';
import { Links, MailCard } from './MailView';
import { MANY_LIMITS, type Batch, type ManyRead } from './many';
import type { MailState, ReadMode } from './state';
import { failureText, mebibytes } from './words';

/** Most files named as not read (the rest are counted). */
const MAX_NAMED = 100;

const MIB = 1024 * 1024;

/** Each file not read, with why, in the words the page uses for one file. */
function notRead(batch: Batch): string[] {
  const { plan, failures } = batch;
  return [
    ...failures.map((failure) => (failure.kind === 'unopened' ? t('mailFileUnopened', failure.name) : failureText(failure.name, failure.failure))),
    ...plan.tooLarge.map((file) => t('mailFileTooLarge', [file.name, mebibytes(file.size), String(MAIL_LIMITS.bytes / MIB)])),
    ...plan.overCount.map((name) => t('mailManyOverCount', [name, String(MANY_LIMITS.files)])),
    ...plan.overBytes.map((name) => t('mailManyOverBytes', [name, String(MANY_LIMITS.bytes / MIB)])),
  ];
}

function Summary({ batch }: { readonly batch: Batch }) {
  const { plan, reads } = batch;
  const lines = notRead(batch);
  return (
    <section class="card stack" aria-labelledby="many-heading">
      <h2 id="many-heading">{t('mailManyHeading')}</h2>
      <p>{t('mailManySummary', [String(reads.length), String(lines.length)])}</p>
      {plan.others > 0 && <p class="small">{t('mailManyOthers', String(plan.others))}</p>}
      {lines.length > 0 && (
        <div class="problems" role="region" aria-labelledby="many-not-read">
          <h3 id="many-not-read" class="warn">
            {t('mailManyNotRead')}
          </h3>
          <ul>
            {lines.slice(0, MAX_NAMED).map((line, index) => (
              <li key={`${String(index)} ${line}`}>{line}</li>
            ))}
          </ul>
          {lines.length > MAX_NAMED && <p class="small">{t('mailManyMore', String(lines.length - MAX_NAMED))}</p>}
        </div>
      )}
    </section>
  );
}

/** One mail's own links, as text: its targets, and its refused links with why. */
function OwnLinks({ read, id }: { readonly read: ManyRead; readonly id: string }) {
  const { links } = read.report;
  if (links.length === 0) return <p>{t('mailNoLinks')}</p>;
  return (
    <section class="stack" aria-labelledby={`${id}-links`}>
      <h3 id={`${id}-links`}>{t('mailMailLinksHeading')}</h3>
      <ul class="plain own-links">
        {links.map((link, index) => (
          <li key={`${String(index)} ${link.url}`}>
            <span class="mono">{link.target ?? link.url}</span>
            {link.target === null && (
              <span class="error small"> {link.refused === undefined ? t('mailRefused') : refusedUrlText(link.refused.code, link.refused.params)}</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One mail read: its name, subject and links on a button that shows its card. */
function MailEntry({ state, read, index }: { readonly state: MailState; readonly read: ManyRead; readonly index: number }) {
  const [open, setOpen] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const id = `many-mail-${String(index)}`;
  const { report } = read;
  return (
    <li>
      <button
        type="button"
        class="mail-entry"
        aria-expanded={open ? 'true' : 'false'}
        aria-controls={open ? id : undefined}
        onClick={() => {
          setOpen(!open);
        }}
      >
        <span class="mono">{read.name}</span>
        <span class="muted small">
          {' '}
          {report.subject ?? t('mailAbsent')} · {report.links.length === 1 ? t('mailMailLinksOne') : t('mailMailLinks', String(report.links.length))}
        </span>
      </button>
      {open && (
        <div id={id}>
          <MailCard name={read.name} report={report} id={id}>
            <div class="row actions">
              <Button
                onClick={() => {
                  void state.copyNoteOf(report, read.name).then(setNotice);
                }}
              >
                {t('mailCopyNote')}
              </Button>
              <NoticeLine notice={notice} />
            </div>
            <OwnLinks read={read} id={id} />
          </MailCard>
        </div>
      )}
    </li>
  );
}

function Mails({ state, reads }: { readonly state: MailState; readonly reads: readonly ManyRead[] }) {
  if (reads.length === 0) return null;
  return (
    <section class="stack" aria-labelledby="many-mails-heading">
      <h2 id="many-mails-heading">{t('mailMailsHeading', String(reads.length))}</h2>
      <ul class="plain mails" aria-labelledby="many-mails-heading">
        {reads.map((read, index) => (
          <MailEntry key={`${String(index)} ${read.name}`} state={state} read={read} index={index} />
        ))}
      </ul>
    </section>
  );
}

export function ManyView({ state, batch, mode }: { readonly state: MailState; readonly batch: Batch; readonly mode: ReadMode }) {
  return (
    <>
      <Summary batch={batch} />
      {batch.reads.length > 0 && (
        <Links state={state} mode={mode} links={batch.targets.map((entry) => entry.link)} tallies={batch.targets.map((entry) => entry.row)} />
      )}
      <Mails state={state} reads={batch.reads} />
    </>
  );
}
