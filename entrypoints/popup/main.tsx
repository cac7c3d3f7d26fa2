import { render } from 'preact';
import '../../src/ui/common/theme.css';
import '../../src/ui/popup/popup.css';
import { t } from '../../src/i18n';
import { App } from '../../src/ui/popup/App';

document.title = t('popupTitle');
const root = document.getElementById('app');
if (root !== null) render(<App />, root);
