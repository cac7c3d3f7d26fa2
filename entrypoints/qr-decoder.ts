/**
 * The image decoder's frame: a classic script (a sandboxed page's module scripts would be
 * fetched from an opaque origin), loaded by public/qr-decoder.html.
 */
import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';

import { serveDecoder } from '../src/ui/decoder/sandbox';

export default defineUnlistedScript(() => {
  serveDecoder(window);
});
