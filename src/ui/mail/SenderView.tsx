/**
 * The sender's story of the mail read (of the original, when the mail is a user's report
 * wrapping it): whether the display name claims another address or domain, where replies and bounces would go when that is
 * another domain, the verdicts of the checks at the boundary, and the hop it came in by.
 * Every value is the mail's text, shown as text.
 */
import { t, type MessageKey } from '../../i18n';
// The readers' barrel for types only: a value from it would bundle the readers (postal-mime,
// parse5) into the page's first load instead of the chunk loaded with the first file.
import type { MailAddress, MailReport, SenderWarning } from '../../readers';
import { AUTH_METHODS, type AuthMethod } from '../../readers/auth-methods';

const WARNING_KEYS: { readonly [W in SenderWarning]: MessageKey } = {
  nameHoldsAddress: 'mailSenderNameAddress',
  nameHoldsDomain: 'mailSenderNameDomain',
  replyToDomain: 'mailSenderReplyToElsewhere',
  returnPathDomain: 'mailSenderReturnPathElsewhere',
};

/** The checks' names as receivers write them. */
const METHOD_NAMES = { spf: 'SPF', dkim: 'DKIM', dmarc: 'DMARC', compauth: 'compauth' } as const satisfies Record<AuthMethod, string>;

/** An address as written; an IDN domain's Unicode form beside it, so a look-alike shows. */
export function Address({ address }: { readonly address: MailAddress }) {
  const written = address.name === null ? address.address : `${address.name} <${address.address}>`;
  return (
    <>
      <span class="mono">{written}</span>
      {address.unicodeDomain !== null && <span class="warn small"> {t('mailSenderIdn', [address.domain ?? '', address.unicodeDomain])}</span>}
    </>
  );
}

function Verdicts({ report }: { readonly report: MailReport }) {
  const { auth, authBy } = report.sender;
  if (AUTH_METHODS.every((method) => auth[method] === null)) return <>{t('mailSenderNoChecks')}</>;
  return (
    <>
      <ul class="verdicts">
        {AUTH_METHODS.filter((method) => auth[method] !== null).map((method) => (
          <li key={method} class={auth[method] === 'pass' ? '' : 'warn'}>
            {METHOD_NAMES[method]} <span class="mono">{auth[method]}</span>
          </li>
        ))}
      </ul>
      {authBy !== null && <span class="muted small">{t('mailSenderChecksBy', authBy)}</span>}
    </>
  );
}

export function SenderView({ report, id = 'mail' }: { readonly report: MailReport; readonly id?: string }) {
  const { sender, reportedBy } = report;
  // The From of the mail itself is among its facts above; a report's original has its own here.
  const warnings = new Set(sender.warnings);
  const hop = sender.received;
  return (
    <section class="sender stack" aria-labelledby={`${id}-sender-heading`}>
      <h3 id={`${id}-sender-heading`}>{t('mailSenderHeading')}</h3>
      <dl class="facts">
        {reportedBy !== null && (
          <>
            <dt>{t('mailSenderOriginal')}</dt>
            <dd>{sender.from === null ? t('mailAbsent') : <Address address={sender.from} />}</dd>
          </>
        )}
        {sender.replyTo !== null && warnings.has('replyToDomain') && (
          <>
            <dt>{t('mailSenderReplyTo')}</dt>
            <dd>
              <Address address={sender.replyTo} />
            </dd>
          </>
        )}
        {sender.returnPath !== null && warnings.has('returnPathDomain') && (
          <>
            <dt>{t('mailSenderReturnPath')}</dt>
            <dd>
              <Address address={sender.returnPath} />
            </dd>
          </>
        )}
        <dt>{t('mailSenderChecks')}</dt>
        <dd>
          <Verdicts report={report} />
        </dd>
        <dt>{t('mailSenderEntered')}</dt>
        <dd>{hop === null ? t('mailSenderNoHop') : <span class="mono">{t('mailSenderHop', [hop.from ?? '?', hop.ip ?? '?', hop.by ?? '?'])}</span>}</dd>
      </dl>
      {sender.warnings.length > 0 && (
        <ul class="warn" aria-label={t('mailSenderWarnings')}>
          {sender.warnings.map((warning) => (
            <li key={warning}>{t(WARNING_KEYS[warning])}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
