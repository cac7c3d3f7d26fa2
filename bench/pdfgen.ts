/**
 * A PDF for figure 13, written here byte by byte (not by pdf.js, which reads it): `pages`
 * pages of Helvetica text, `linesPerPage` lines each (one line in four names a URL, one in
 * eight defanged), and `linksPerPage` link annotations with URI actions over lines of the
 * page. The same bytes on every machine.
 */
export interface PdfPlan {
  readonly pages: number;
  readonly linksPerPage: number;
  readonly linesPerPage: number;
}

/** A PDF literal string: backslash, parentheses escaped. */
function literal(text: string): string {
  return `(${text.replace(/[\\()]/g, (char) => `\\${char}`)})`;
}

function line(page: number, index: number): string {
  const host = `host${String((page * 7 + index) % 97)}.example`;
  if (index % 8 === 0) return `Report ${String(page)}-${String(index)}: hxxps://${host.replace('.', '[.]')}/case/${String(index)}`;
  if (index % 4 === 0) return `See https://${host}/notice/${String(page)}/${String(index)} for the details of this notice.`;
  return `Line ${String(index)} of page ${String(page)}: the quarterly statement of the account holder, as agreed.`;
}

export function generatePdf(plan: PdfPlan): Uint8Array {
  const objects: string[] = [];
  const add = (body: string): number => objects.push(body);
  const catalog = add('');
  const pagesId = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const kids: number[] = [];
  for (let page = 1; page <= plan.pages; page++) {
    const text = Array.from({ length: plan.linesPerPage }, (_, i) => `BT /F1 9 Tf 40 ${String(760 - i * 18)} Td ${literal(line(page, i))} Tj ET`).join('\n');
    const content = add(`<< /Length ${String(text.length)} >>\nstream\n${text}\nendstream`);
    const annots: number[] = [];
    for (let link = 0; link < plan.linksPerPage; link++) {
      const y = 760 - (link % plan.linesPerPage) * 18;
      const uri = `https://target${String(link)}.example/p${String(page)}/l${String(link)}`;
      annots.push(
        add(`<< /Type /Annot /Subtype /Link /Rect [40 ${String(y - 3)} 400 ${String(y + 10)}] /Border [0 0 0] /A << /S /URI /URI ${literal(uri)} >> >>`),
      );
    }
    kids.push(
      add(
        `<< /Type /Page /Parent ${String(pagesId)} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${String(font)} 0 R >> >> /Contents ${String(content)} 0 R /Annots [${annots.map((id) => `${String(id)} 0 R`).join(' ')}] >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${String(pagesId)} 0 R >>`;
  objects[pagesId - 1] = `<< /Type /Pages /Kids [${kids.map((id) => `${String(id)} 0 R`).join(' ')}] /Count ${String(kids.length)} >>`;
  let out = '%PDF-1.7\n';
  const offsets: number[] = [];
  // Every byte written is ASCII: a string's length is its length in bytes.
  objects.forEach((body, index) => {
    offsets.push(out.length);
    out += `${String(index + 1)} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${String(objects.length + 1)}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${String(objects.length + 1)} /Root ${String(catalog)} 0 R >>\nstartxref\n${String(xref)}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}
