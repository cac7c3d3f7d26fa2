// First: the page's first questions leave before the rest of its code runs.
import { earlyConnector } from '../../src/ui/common/early';
import { mountPage } from '../../src/ui/common/mount';
import '../../src/ui/mail/mail.css';
import { App } from '../../src/ui/mail/App';

mountPage(<App connector={earlyConnector} />, 'mailTitle');
