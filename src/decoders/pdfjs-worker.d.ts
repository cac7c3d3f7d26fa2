/** pdf.js's parser ("worker") modules, imported to run the parser in the same thread; pdfjs-dist ships no types for them. */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
declare module 'pdfjs-dist/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
