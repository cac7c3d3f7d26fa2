import { defineBackground } from 'wxt/utils/define-background';
import { registerBackground } from '../src/background';

// A classic script (WXT's IIFE), not a module: Chromium keeps a V8 code cache for a
// classic service worker and compiles a module worker afresh on every start (see
// bench/README, "Issue 14": compile 9 ms -> 3 ms, and no lazy compiling on the first click).
export default defineBackground({
  main: registerBackground,
});
