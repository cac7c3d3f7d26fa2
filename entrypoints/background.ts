import { defineBackground } from 'wxt/utils/define-background';
import { registerBackground } from '../src/background';

export default defineBackground({
  type: 'module',
  main: registerBackground,
});
