import { mountPage } from '../../src/ui/common/mount';
import '../../src/ui/options/options.css';
import { App } from '../../src/ui/options/App';

mountPage(<App />, 'optionsTitle');
