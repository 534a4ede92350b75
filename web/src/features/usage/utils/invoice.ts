import Papa from 'papaparse';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Invoice } from '#shared/schemas/api/usage.ts';

const dollars = (n: number) => `$${n.toFixed(2)}`;

/** The invoice lines in the order both files show them. */
function lines(invoice: Invoice): [string, string][] {
  return [
    ['Invoice', invoice.number],
    ['Hospital', invoice.hospitalName],
    ['Month', invoice.month],
    ['Plan', invoice.plan ?? ''],
    ['Price per user per month', dollars(invoice.pricePerUser)],
    ['Users', String(invoice.users)],
    ['Amount', dollars(invoice.amount)],
    ['Due date', invoice.dueDate],
  ];
}

/** The monthly invoice as CSV (docs/screens.md#usage-and-billing); formula-like cells are escaped. */
export function invoiceCsv(invoice: Invoice): string {
  return Papa.unparse({ fields: ['Item', 'Value'], data: lines(invoice) }, { escapeFormulae: true, newline: '\r\n' });
}

/** Standard PDF fonts encode WinAnsi only: anything else is replaced so drawing never throws. */
const printable = (text: string) => text.replace(/[^\x20-\x7E\xA0-\xFF]/g, '?');

/** The monthly invoice as a one-page PDF, built in the browser from the server's figures. */
export async function invoicePdf(invoice: Invoice): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Invoice ${invoice.number}`);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([595.28, 841.89]);
  let y = 790;
  page.drawText(printable(`Invoice ${invoice.month}`), { x: 48, y, size: 18, font: bold });
  y -= 32;
  for (const [label, value] of lines(invoice)) {
    page.drawText(printable(label), { x: 48, y, size: 11, font: bold });
    page.drawText(printable(value), { x: 260, y, size: 11, font: regular });
    y -= 18;
  }
  return doc.save();
}
