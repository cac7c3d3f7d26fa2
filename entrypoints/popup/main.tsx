// First: the page's first questions leave before the rest of its code runs.
import { earlyConnector } from '../../src/ui/common/early';
import { mountPage } from '../../src/ui/common/mount';
import '../../src/ui/popup/popup.css';
import { App } from '../../src/ui/popup/App';

mountPage(<App connector={earlyConnector} />, 'popupTitle');
