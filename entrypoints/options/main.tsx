import { render } from 'preact';
import { t } from '../../src/i18n';
import { App } from '../../src/ui/options/App';
import '../../src/ui/common/theme.css';
import '../../src/ui/options/options.css';

document.title = t('optionsTitle');
const root = document.getElementById('app');
if (root) render(<App />, root);
