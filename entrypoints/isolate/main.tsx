// The landing page of a navigation stopped by isolate-by-policy rules (src/ui/isolate).
import { openOptionsAt } from '../../src/messaging/options';
import { sendToBackground } from '../../src/messaging/page';
import { mountPage } from '../../src/ui/common/mount';
import { App } from '../../src/ui/isolate/App';
import '../../src/ui/isolate/isolate.css';

// The fragment goes to the background at once, before anything is rendered; it is taken out
// of the address and of the history entry, so the link and the rules' key stay in this page.
const hash = location.hash;
const first = sendToBackground('landed', { hash, go: false });
history.replaceState(null, '', location.pathname);

mountPage(
  <App
    hash={hash}
    first={first}
    deps={{
      connector: sendToBackground,
      replaceWith: (url) => {
        location.replace(url);
      },
      leave: () => {
        if (history.length > 1) history.back();
        else window.close();
      },
      // Offered when the isolation failed: the connection is what to check.
      openOptions: () => openOptionsAt('connection'),
    }}
  />,
  'isolateTitle',
);
