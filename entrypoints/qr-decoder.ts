/**
 * The image decoder: a classic script, run by public/qr-decoder.html in a sandboxed frame
 * (Chrome; a sandboxed page's module scripts would be fetched from an opaque origin) or as
 * a worker (Firefox, which has no sandboxed pages).
 */
import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';

import { framePort, serveDecoder, workerPort } from '../src/ui/decoder/sandbox';

export default defineUnlistedScript(() => {
  serveDecoder(typeof window === 'undefined' ? workerPort(self) : framePort(window));
});
