/**
 * The targets of a PDF's form actions (SubmitForm, ImportData), which pdf.js does not
 * expose: read from the file's syntax by src/readers/pdf-forms.ts. The documents here are
 * written in the test, each a form a phishing PDF uses; the corpus file actions.pdf is read
 * end to end in pdf-reader.test.ts.
 */
import { zlibSync } from 'fflate';
import { describe, expect, it } from 'vitest';

import { PDF_LIMITS } from '../../src/readers/limits';
import { formTargets } from '../../src/readers/pdf-forms';

const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (char) => char.charCodeAt(0));

/** A PDF's bytes around the given objects (no xref: the reading is lexical, as pdf.js's repair is). */
function pdf(...objects: string[]): Uint8Array {
  return latin1(`%PDF-1.7\n${objects.map((body, i) => `${String(i + 1)} 0 obj\n${body}\nendobj\n`).join('')}trailer\n<< /Root 1 0 R >>\n%%EOF\n`);
}

describe('formTargets', () => {
  it('reads a SubmitForm target as a string, a /FS /URL dictionary, and through a reference', () => {
    const bytes = pdf(
      '<< /Type /Annot /Subtype /Widget /A << /S /SubmitForm /F (https://a.example/post) /Flags 4 >> >>',
      '<< /Type /Action /F << /FS /URL /F (https://b.example/collect?x=\\(1\\)) >> /S /SubmitForm >>',
      '<< /S /ImportData /F 4 0 R >>',
      '<< /Type /Filespec /FS /URL /F <68747470733a2f2f632e6578616d706c652f64617461> >>',
    );
    expect(formTargets(bytes)).toEqual(['https://a.example/post', 'https://b.example/collect?x=(1)', 'https://c.example/data']);
  });

  it('reads a name spelled with #xx escapes and a UTF-16 target, and lists each target once', () => {
    const utf16 = `\u00fe\u00ff${[...'https://d.example/'].map((char) => `\u0000${char}`).join('')}`;
    const bytes = pdf(
      `<< /S /Submit#46orm /F (${utf16}) >>`,
      '<< /S /SubmitForm /F (https://d.example/) >>',
      '<< /S /URI /URI (https://not-a-form.example/) >>',
    );
    expect(formTargets(bytes)).toEqual(['https://d.example/']);
  });

  it('reads actions inside compressed object streams', () => {
    const inner = '<< /S /SubmitForm /F << /FS /URL /F (https://hidden.example/steal) >> >>';
    const data = zlibSync(latin1(`5 0 ${inner}`));
    const head = `%PDF-1.7\n7 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${String(data.length)} >>\nstream\n`;
    const bytes = new Uint8Array([...latin1(head), ...data, ...latin1('\nendstream\nendobj\n%%EOF\n')]);
    expect(formTargets(bytes)).toEqual(['https://hidden.example/steal']);
  });

  it('stops inflating at its bound: a stream bomb costs at most PDF_LIMITS.inflatedBytes', () => {
    const zeros = zlibSync(new Uint8Array(PDF_LIMITS.inflatedBytes + 1024 * 1024), { level: 9 });
    const head = `%PDF-1.7\n7 0 obj\n<< /Type /ObjStm /Filter /FlateDecode /Length ${String(zeros.length)} >>\nstream\n`;
    const bytes = new Uint8Array([...latin1(head), ...zeros, ...latin1('\nendstream\nendobj\n%%EOF\n')]);
    expect(formTargets(bytes)).toEqual([]);
  });

  it('finds nothing in a form without a target, an unterminated dictionary, or deep nesting, and never throws', () => {
    expect(formTargets(pdf('<< /S /SubmitForm /Flags 4 >>'))).toEqual([]);
    expect(formTargets(latin1('%PDF-1.7\n1 0 obj\n<< /S /SubmitForm /F (https://cut.example/'))).toEqual(['https://cut.example/']);
    expect(formTargets(pdf(`<< /S /SubmitForm /X ${'['.repeat(5000)} /F (https://deep.example/) >>`))).toEqual([]);
  });
});
