/**
 * The links of an SVG image, read as markup and never drawn. An SVG is a document: it can
 * hold links (`<a href>`, `<a xlink:href>`, and `<set>`/`<animate>` that change an
 * anchor's target), scripts that run when it is opened in a browser tab (`<script>`,
 * `onload` and the other event handler attributes), and HTML (`<foreignObject>`): phishing
 * sends it as a "voice message" or a "secure document" whose script sends the victim on.
 *
 * It is read by the same tokenizer as a mail's HTML (./html), in foreign content from its
 * first byte, as an XML document is: no raw-text elements, `<![CDATA[…]]>` read as text,
 * no `<base>`. Its scripts are read as text for the URLs they name (./script), never run;
 * the images and stylesheets it would load are counted, not fetched.
 */
import { readMarkup, type HtmlReading } from './html';

/** Reads an SVG image's text: its links in document order (those of its scripts marked `script`), its loads. */
export function readSvg(svg: string, maxShown: number): HtmlReading {
  return readMarkup(svg, maxShown, 'svg');
}
