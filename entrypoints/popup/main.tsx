import { mountPage } from '../../src/ui/common/mount';
import '../../src/ui/popup/popup.css';
import { App } from '../../src/ui/popup/App';

mountPage(<App />, 'popupTitle');
