import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { Reports } from '#shared/schemas/api/oversight.ts';
import { formatBytes } from '#web/lib/format.ts';

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 48;
const LINE = 16;

/** Standard PDF fonts encode WinAnsi only: anything else is replaced so drawing never throws. */
function printable(text: string): string {
  return text.replace(/[\u2013\u2014]/g, '-').replace(/[^\x20-\x7E\xA0-\xFF]/g, '?');
}

/** Cuts text to a column's width with an ellipsis. */
function fit(text: string, font: PDFFont, size: number, width: number): string {
  let value = printable(text);
  if (font.widthOfTextAtSize(value, size) <= width) return value;
  while (value.length > 1 && font.widthOfTextAtSize(`${value}...`, size) > width) value = value.slice(0, -1);
  return `${value}...`;
}

/**
 * The report as a PDF (docs/screens.md#reports), built in the browser from the server's figures: totals, studies per
 * month with storage and active users, studies per team, processing times. Pages are added as tables grow.
 */
export async function reportPdf(report: Reports, hospitalName: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Report: last ${report.months} months`);
  doc.setCreationDate(new Date(report.generatedAt));
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  let page: PDFPage = doc.addPage(A4);
  let y = A4[1] - MARGIN;
  const ensure = (lines: number) => {
    if (y - lines * LINE >= MARGIN) return;
    page = doc.addPage(A4);
    y = A4[1] - MARGIN;
  };
  const text = (value: string, x: number, options: { font?: PDFFont; size?: number; width?: number } = {}) => {
    const font = options.font ?? regular;
    const size = options.size ?? 10;
    page.drawText(fit(value, font, size, options.width ?? A4[0] - MARGIN - x), {
      x,
      y,
      font,
      size,
      color: rgb(0, 0, 0),
    });
  };
  const heading = (value: string) => {
    ensure(3);
    y -= LINE / 2;
    text(value, MARGIN, { font: bold, size: 13 });
    y -= LINE * 1.25;
  };
  const table = (columns: { title: string; width: number }[], rows: string[][]) => {
    ensure(2);
    let x = MARGIN;
    for (const c of columns) {
      text(c.title, x, { font: bold, width: c.width - 4 });
      x += c.width;
    }
    y -= LINE;
    for (const row of rows) {
      ensure(1);
      x = MARGIN;
      row.forEach((cell, i) => {
        text(cell, x, { width: columns[i]!.width - 4 });
        x += columns[i]!.width;
      });
      y -= LINE;
    }
  };

  text(`Report: ${hospitalName}`, MARGIN, { font: bold, size: 18 });
  y -= LINE * 1.5;
  text(
    `Last ${report.months} months, since ${report.from.slice(0, 10)} (UTC); computed ${report.generatedAt.slice(0, 16).replace('T', ' ')} UTC`,
    MARGIN,
  );
  y -= LINE;
  heading('Totals');
  table(
    [
      { title: 'Studies', width: 120 },
      { title: 'Storage added', width: 140 },
      { title: 'Active users', width: 120 },
    ],
    [[String(report.totals.studies), formatBytes(report.totals.storageBytes), String(report.totals.activeUsers)]],
  );
  heading('Studies per month');
  table(
    [
      { title: 'Month', width: 80 },
      { title: 'Studies', width: 60 },
      { title: 'Complete', width: 70 },
      { title: 'Failed', width: 60 },
      { title: 'Storage added', width: 100 },
      { title: 'Storage total', width: 100 },
      { title: 'Active users', width: 80 },
    ],
    report.perMonth.map((m) => [
      m.month,
      String(m.studies),
      String(m.byStatus.COMPLETE),
      String(m.byStatus.FAILED),
      formatBytes(m.storageAddedBytes),
      formatBytes(m.storageTotalBytes),
      String(m.activeUsers),
    ]),
  );
  heading('Studies by team');
  table(
    [
      { title: 'Team', width: 220 },
      { title: 'Studies', width: 80 },
      { title: 'Completed', width: 80 },
      { title: 'Failed', width: 80 },
    ],
    report.byTeam.map((t) => [t.teamName, String(t.studies), String(t.completed), String(t.failed)]),
  );
  heading('Processing time (creation to completion)');
  const p = report.processingMinutes;
  const minutes = (m: number | null) => (m === null ? '-' : `${m} min`);
  table(
    [
      { title: 'Completed', width: 100 },
      { title: 'Median', width: 100 },
      { title: 'p90', width: 100 },
      { title: 'p99', width: 100 },
    ],
    [[String(p.completed), minutes(p.p50), minutes(p.p90), minutes(p.p99)]],
  );
  return doc.save();
}
