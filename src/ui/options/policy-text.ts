/**
 * Words for each policy type and value. Typed against POLICY_RULES: a type or value
 * added to the table fails the type check until it has its words here.
 */
import type { MessageKey } from '../../i18n';
import type { KnownPolicyType, POLICY_RULES } from '../../policy';

type RuleOf<T extends KnownPolicyType> = (typeof POLICY_RULES)[T];
type ValuedType = { [T in KnownPolicyType]: RuleOf<T> extends { readonly values: readonly string[] } ? T : never }[KnownPolicyType];
type ValueOf<T extends ValuedType> = RuleOf<T>['values'][number];

export const TYPE_LABELS: { readonly [T in KnownPolicyType]: MessageKey } = {
  readonly: 'optionsPolicyReadonly',
  file_transfer: 'optionsPolicyFileTransfer',
  clipboard: 'optionsPolicyClipboard',
  ad_block: 'optionsPolicyAdBlock',
  browser_chrome: 'optionsPolicyBrowserChrome',
  domain_allow: 'optionsPolicyDomainAllow',
  domain_block: 'optionsPolicyDomainBlock',
  ribbon_background_color: 'optionsPolicyRibbonBackground',
  ribbon_text_color: 'optionsPolicyRibbonText',
  ribbon_message: 'optionsPolicyRibbonMessage',
};

const VALUE_LABELS: { readonly [T in ValuedType]: { readonly [V in ValueOf<T>]: MessageKey } } = {
  readonly: { true: 'optionsPolicyReadonlyTrue', false: 'optionsPolicyReadonlyFalse' },
  file_transfer: { block_all: 'optionsPolicyFileTransferBlockAll', allow_all: 'optionsPolicyFileTransferAllowAll' },
  clipboard: {
    block_all: 'optionsPolicyClipboardBlockAll',
    allow_all: 'optionsPolicyClipboardAllowAll',
    allow_to_local: 'optionsPolicyClipboardAllowToLocal',
    block_to_silo: 'optionsPolicyClipboardBlockToSilo',
  },
  ad_block: { enable: 'optionsPolicyAdBlockEnable', disable: 'optionsPolicyAdBlockDisable' },
  browser_chrome: {
    standard: 'optionsPolicyBrowserChromeStandard',
    seamless: 'optionsPolicyBrowserChromeSeamless',
    minimal: 'optionsPolicyBrowserChromeMinimal',
  },
};

/** The words for one value of a type, or undefined for a value the table does not name. */
export function valueLabel(type: KnownPolicyType, value: string): MessageKey | undefined {
  const labels: Readonly<Record<string, MessageKey>> | undefined = Object.hasOwn(VALUE_LABELS, type) ? VALUE_LABELS[type as ValuedType] : undefined;
  return labels !== undefined && Object.hasOwn(labels, value) ? labels[value] : undefined;
}

/** Notes shown beside a type's control. */
export const TYPE_NOTES: { readonly [T in KnownPolicyType]?: MessageKey } = {
  readonly: 'optionsPolicyReadonlyNote',
  browser_chrome: 'optionsPolicyBrowserChromeNote',
  domain_allow: 'optionsPolicyDomainAllowNote',
  domain_block: 'optionsPolicyDomainBlockNote',
};
