import { BROWSER_NAMES, BROWSER_OS } from '../../api/params';
import { EGRESS_REGIONS, REGION_NAMES } from '../../egress';
import { t, type MessageKey } from '../../i18n';
import { AVAILABILITY_VALUES, CONNECTIVITY_VALUES, type BrowserName, type BrowserOs, type IsolateState } from './isolate-state';
import { browserLabel, osLabel } from './labels';

const CATEGORY_LABELS: Readonly<Record<string, MessageKey>> = {
  public: 'popupAvailabilityPublic',
  datacenter: 'popupConnectivityDatacenter',
  isp: 'popupConnectivityIsp',
};

function isOs(value: string): value is BrowserOs {
  return (BROWSER_OS as readonly string[]).includes(value);
}

function isBrowser(value: string): value is BrowserName {
  return (BROWSER_NAMES as readonly string[]).includes(value);
}

interface CheckboxesProps {
  readonly legend: string;
  readonly values: readonly string[];
  readonly chosen: readonly string[];
  readonly onChange: (value: string, on: boolean) => void;
}

function CategoryCheckboxes({ legend, values, chosen, onChange }: CheckboxesProps) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {values.map((value) => {
        const key = CATEGORY_LABELS[value];
        return (
          <label key={value} class="inline">
            <input
              type="checkbox"
              checked={chosen.includes(value)}
              onChange={(event) => {
                onChange(value, event.currentTarget.checked);
              }}
            />
            {key === undefined ? value : t(key)}
          </label>
        );
      })}
    </fieldset>
  );
}

/** Research session choices: egress location, browser profile and egress categories. */
export function ResearchFields({ state }: { readonly state: IsolateState }) {
  const os = state.os.value;
  return (
    <fieldset class="research">
      <legend>{t('popupResearchLegend')}</legend>
      <label for="research-egress">{t('popupEgressLabel')}</label>
      <select
        id="research-egress"
        value={state.egressRegion.value}
        onChange={(event) => {
          state.egressRegion.value = event.currentTarget.value;
        }}
      >
        <option value="">{t('popupEgressDefault')}</option>
        {REGION_NAMES.map((region) => (
          <optgroup key={region} label={region}>
            <option value={region}>{t('popupEgressAnywhereIn', region)}</option>
            {EGRESS_REGIONS[region].map((city) => (
              <option key={city} value={city}>
                {city}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      <div class="pair">
        <div>
          <label for="research-os">{t('popupOsLabel')}</label>
          <select
            id="research-os"
            value={os}
            onChange={(event) => {
              const value = event.currentTarget.value;
              state.os.value = isOs(value) ? value : '';
            }}
          >
            <option value="">{t('popupProfileNone')}</option>
            {BROWSER_OS.map((value) => (
              <option key={value} value={value}>
                {osLabel(value)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="research-browser">{t('popupBrowserLabel')}</label>
          <select
            id="research-browser"
            value={state.browserName.value}
            disabled={os === ''}
            onChange={(event) => {
              const value = event.currentTarget.value;
              if (isBrowser(value)) state.browserName.value = value;
            }}
          >
            {BROWSER_NAMES.map((value) => (
              <option key={value} value={value}>
                {browserLabel(value)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <CategoryCheckboxes
        legend={t('popupAvailabilityLegend')}
        values={AVAILABILITY_VALUES}
        chosen={state.availability.value}
        onChange={state.setAvailability}
      />
      <CategoryCheckboxes
        legend={t('popupConnectivityLegend')}
        values={CONNECTIVITY_VALUES}
        chosen={state.connectivity.value}
        onChange={state.setConnectivity}
      />
    </fieldset>
  );
}
