/**
 * pdf.js modules pdfjs-dist ships without types: its parser ("worker") modules, imported
 * to run the parser in the same thread (here in Node, src/ui/decoder/pdf in the decoder
 * sandbox), and the browser build's entry. Their values are used through the interfaces
 * of src/readers/pdf, never their own types. Ambient: it serves both places.
 */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
declare module 'pdfjs-dist/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
declare module 'pdfjs-dist/build/pdf.mjs' {
  export const getDocument: unknown;
}
