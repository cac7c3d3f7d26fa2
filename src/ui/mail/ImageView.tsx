/**
 * An image read on the reported mail page: its size, how many codes it holds, the codes
 * that are not links (shown as text, never opened), and the links of the others with the
 * same choices as a mail's.
 */
import { t, type MessageKey } from '../../i18n';
import type { CodeKind, ImageReport, MailLink } from '../../readers';
import { Links } from './MailView';
import type { MailState, ReadMode } from './state';

const KIND_KEYS: { readonly [K in Exclude<CodeKind, 'link'>]: MessageKey } = {
  wifi: 'qrKindWifi',
  contact: 'qrKindContact',
  email: 'qrKindEmail',
  phone: 'qrKindPhone',
  sms: 'qrKindSms',
  event: 'qrKindEvent',
  place: 'qrKindPlace',
  text: 'qrKindText',
};

/** The codes that are not links: what each holds, and its text as decoded (escaped by rendering, never run). */
function Others({ image }: { readonly image: ImageReport }) {
  const others = image.codes.filter((code) => code.kind !== 'link');
  if (others.length === 0) return null;
  return (
    <section class="stack" aria-labelledby="qr-others-heading">
      <h3 id="qr-others-heading">{t('qrOthersHeading')}</h3>
      <ul class="plain codes">
        {others.map((code, index) => (
          <li key={`${String(index)} ${code.text}`}>
            <strong>{code.kind === 'link' ? null : t(KIND_KEYS[code.kind])}</strong>
            <pre class="mono code-text">{code.text}</pre>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ImageView({
  state,
  name,
  image,
  links,
  mode,
}: {
  readonly state: MailState;
  readonly name: string;
  readonly image: ImageReport;
  readonly links: readonly MailLink[];
  readonly mode: ReadMode;
}) {
  return (
    <>
      <section class="card stack" aria-labelledby="qr-heading">
        <h2 id="qr-heading">{t('qrHeading', name)}</h2>
        <p>{t('qrFacts', [String(image.width), String(image.height), String(image.codes.length)])}</p>
        {image.codes.length === 0 && <p class="warn">{t('qrNone')}</p>}
        <Others image={image} />
      </section>
      {links.length > 0 && <Links state={state} mode={mode} links={links} />}
    </>
  );
}
