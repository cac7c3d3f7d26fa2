import { defineBackground } from 'wxt/utils/define-background';

export default defineBackground(() => {
  // Wiring lands with the extension issue; the foundation ships the client and fang.
});
