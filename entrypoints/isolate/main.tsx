// The landing page of a navigation stopped by isolate-by-policy rules (src/ui/isolate).
import { browser } from 'wxt/browser';
import { landingPage } from '../../src/messaging/landing';
import { askFirst, sendToBackground } from '../../src/messaging/page';
import type { NetRule } from '../../src/autoisolate';
import { mountPage } from '../../src/ui/common/mount';
import { App } from '../../src/ui/isolate/App';
import '../../src/ui/isolate/isolate.css';

// The settings are asked for at once; the fragment is read and taken out of the address
// and of the history entry, so the link and the rules' key stay in this page only.
const connector = askFirst(sendToBackground, ['getSettings']);
const hash = location.hash;
history.replaceState(null, '', location.pathname);

mountPage(
  <App
    hash={hash}
    deps={{
      connector,
      rules: async () => (await browser.declarativeNetRequest.getDynamicRules()) as NetRule[],
      page: landingPage(),
      replaceWith: (url) => {
        location.replace(url);
      },
      leave: () => {
        if (history.length > 1) history.back();
        else window.close();
      },
      openOptions: () => browser.runtime.openOptionsPage(),
    }}
  />,
  'isolateTitle',
);
