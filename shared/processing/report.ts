import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { resolveProfile } from '#shared/dicom/deidentify/profile.ts';
import type { AnonymizationOptions } from '#shared/vocabulary/deidentification.ts';

export type ReportInput = {
  /** The dataset's context as stored; the report prints only what `anonymization` keeps (see reportContext). */
  dataset: {
    id: string;
    patientAlias: string;
    studyType: string;
    studyDescription: string;
    clinicalIndication: string;
    orderingPhysician: string;
    department: string;
    createdAt: string;
    hospitalName?: string;
  };
  anonymization: AnonymizationOptions;
  series: {
    seriesNumber: number;
    description: string;
    modality: string;
    sliceCount: number;
    classifiedType: string;
    confidence: number;
    source: string;
    bids: { datatype: string; suffix: string };
  }[];
  thumbnails: { seriesNumber: number; png: Uint8Array }[];
  quality?: Record<string, string | number>;
};

/**
 * The study summary rows the de-identification options let through. The report is a de-identified asset like the
 * images: hospital and department only with Retain Institution Identity, the ordering physician only with Retain
 * Physician Identity. The clinical indication is free text that no option can clean, so it is never printed, and no
 * real date is printed either (Retain Longitudinal Temporal Information keeps only shifted dates, PS3.15 E.3.6).
 */
export function reportContext(input: Pick<ReportInput, 'dataset' | 'anonymization' | 'series'>): [string, string][] {
  const d = input.dataset;
  const options = input.anonymization;
  return [
    ['Dataset', d.id],
    ['Patient alias', d.patientAlias || '-'],
    ...(options.retainInstitutionIdentity
      ? ([
          ['Hospital', d.hospitalName ?? '-'],
          ['Department', d.department || '-'],
        ] as [string, string][])
      : []),
    ['Study type', d.studyType],
    ['Study description', d.studyDescription || '-'],
    ...(options.retainPhysicianIdentity
      ? ([['Ordering physician', d.orderingPhysician || '-']] as [string, string][])
      : []),
    ['Series', String(input.series.length)],
  ];
}

/** The profile and options applied, in the words of PS3.15 (one description, from the de-identification engine). */
export function describeDeidentification(options: AnonymizationOptions): string {
  return resolveProfile(options).methodText.join(', ');
}

const PAGE = { width: 595.28, height: 841.89, margin: 48 } as const; // A4 in points
const INK = rgb(0.1, 0.12, 0.16);
const MUTED = rgb(0.42, 0.45, 0.5);
const RULE = rgb(0.82, 0.84, 0.87);

/** Column layout of the series table: header, width (pt), cell text. */
const SERIES_COLUMNS: { header: string; width: number; cell: (s: ReportInput['series'][number]) => string }[] = [
  { header: '#', width: 28, cell: (s) => String(s.seriesNumber) },
  { header: 'Description', width: 140, cell: (s) => s.description || '(none)' },
  { header: 'Modality', width: 48, cell: (s) => s.modality },
  { header: 'Slices', width: 38, cell: (s) => String(s.sliceCount) },
  { header: 'Type', width: 62, cell: (s) => s.classifiedType },
  { header: 'Confidence', width: 56, cell: (s) => `${Math.round(s.confidence * 100)}%` },
  { header: 'Source', width: 42, cell: (s) => s.source },
  { header: 'BIDS', width: 85, cell: (s) => `${s.bids.datatype}/${s.bids.suffix}` },
];

/** Standard PDF fonts encode WinAnsi only: anything else is replaced so drawing never throws. */
function printable(text: string): string {
  return text
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/[^\x20-\x7E\xA0-\xFF]/g, '?');
}

function fit(text: string, font: PDFFont, size: number, width: number): string {
  let value = printable(text);
  if (font.widthOfTextAtSize(value, size) <= width) return value;
  while (value.length > 1 && font.widthOfTextAtSize(`${value}...`, size) > width) value = value.slice(0, -1);
  return `${value}...`;
}

/** Identifier-like keys (camelCase, snake_case) become sentence case; keys already written as text stay as they are. */
function humanize(key: string): string {
  if (/\s/.test(key)) return key;
  const words = key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_+/g, ' ')
    .toLowerCase()
    .replace(/\buids?\b/g, (w) => w.toUpperCase().replace('S', 's'));
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Greedy word wrap to a width; a word longer than the width is cut with an ellipsis. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of printable(text).split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = fit(word, font, size, width);
  }
  if (line || lines.length === 0) lines.push(line || '-');
  return lines;
}

/** A cursor over pages: adds a page whenever the next block would not fit. */
class Layout {
  page!: PDFPage;
  y = 0;
  pages = 0;
  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: { regular: PDFFont; bold: PDFFont },
    private readonly footer: string,
  ) {
    this.newPage();
  }

  newPage(): void {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.pages++;
    this.y = PAGE.height - PAGE.margin;
    this.page.drawText(printable(`${this.footer} - page ${this.pages}`), {
      x: PAGE.margin,
      y: 24,
      size: 8,
      font: this.fonts.regular,
      color: MUTED,
    });
  }

  ensure(height: number): void {
    if (this.y - height < PAGE.margin) this.newPage();
  }

  text(
    value: string,
    options: { size?: number; bold?: boolean; color?: ReturnType<typeof rgb>; x?: number; width?: number } = {},
  ): void {
    const size = options.size ?? 10;
    const font = options.bold ? this.fonts.bold : this.fonts.regular;
    this.ensure(size + 4);
    this.y -= size + 4;
    const width = options.width ?? PAGE.width - 2 * PAGE.margin;
    this.page.drawText(fit(value, font, size, width), {
      x: options.x ?? PAGE.margin,
      y: this.y,
      size,
      font,
      color: options.color ?? INK,
    });
  }

  heading(value: string): void {
    // Keep a heading with at least a few lines of its section.
    this.ensure(90);
    this.y -= 14;
    this.text(value, { size: 13, bold: true });
    this.y -= 4;
    this.page.drawLine({
      start: { x: PAGE.margin, y: this.y },
      end: { x: PAGE.width - PAGE.margin, y: this.y },
      thickness: 0.6,
      color: RULE,
    });
    this.y -= 4;
  }

  pairs(rows: [string, string][]): void {
    const labelWidth = 190;
    const valueWidth = PAGE.width - 2 * PAGE.margin - labelWidth - 10;
    for (const [label, value] of rows) {
      const labels = wrap(label, this.fonts.bold, 9.5, labelWidth);
      const values = wrap(value, this.fonts.regular, 9.5, valueWidth);
      const lines = Math.max(labels.length, values.length);
      this.ensure(lines * 13 + 2);
      this.y -= 2;
      for (let i = 0; i < lines; i++) {
        this.y -= 13;
        if (labels[i])
          this.page.drawText(labels[i]!, { x: PAGE.margin, y: this.y, size: 9.5, font: this.fonts.bold, color: MUTED });
        if (values[i])
          this.page.drawText(values[i]!, {
            x: PAGE.margin + labelWidth + 10,
            y: this.y,
            size: 9.5,
            font: this.fonts.regular,
            color: INK,
          });
      }
    }
  }

  row(cells: string[], widths: number[], bold: boolean): void {
    this.ensure(15);
    this.y -= 15;
    let x = PAGE.margin;
    const font = bold ? this.fonts.bold : this.fonts.regular;
    cells.forEach((cell, i) => {
      const width = widths[i] as number;
      this.page.drawText(fit(cell, font, 8.5, width - 4), { x, y: this.y, size: 8.5, font, color: bold ? MUTED : INK });
      x += width;
    });
  }
}

/**
 * REPORT asset: a PDF per dataset with the study summary, the de-identification applied, the series table with
 * classification and confidence, the thumbnails and the quality figures. Standard fonts keep the text extractable
 * (pdftotext, pdf.js) and the file small; no PHI beyond the dataset's own masked alias is written.
 */
export async function buildReport(input: ReportInput): Promise<Uint8Array> {
  // Without updateMetadata pdf-lib stamps the creation and modification time, a real date.
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(`Dataset report ${input.dataset.id}`);
  doc.setSubject('Imaging Workspace dataset report');
  doc.setProducer('Imaging Workspace');
  const fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  };
  const layout = new Layout(doc, fonts, `Imaging Workspace - dataset ${input.dataset.id}`);

  layout.text('Imaging Workspace', { size: 10, color: MUTED });
  layout.text('Dataset report', { size: 20, bold: true });
  layout.y -= 6;

  layout.heading('Study summary');
  layout.pairs(reportContext(input));

  layout.heading('De-identification applied');
  layout.pairs([
    ['Profile', describeDeidentification(input.anonymization)],
    ...Object.entries(input.anonymization).map(([key, on]): [string, string] => [humanize(key), on ? 'Yes' : 'No']),
  ]);

  layout.heading('Series');
  const widths = SERIES_COLUMNS.map((c) => c.width);
  layout.row(
    SERIES_COLUMNS.map((c) => c.header),
    widths,
    true,
  );
  for (const series of [...input.series].sort((a, b) => a.seriesNumber - b.seriesNumber)) {
    layout.row(
      SERIES_COLUMNS.map((c) => c.cell(series)),
      widths,
      false,
    );
  }
  if (input.series.length === 0) layout.text('No series in this dataset.', { size: 9.5, color: MUTED });

  if (input.thumbnails.length > 0) {
    layout.heading('Thumbnails');
    const size = 150;
    const gap = 16;
    const perRow = Math.floor((PAGE.width - 2 * PAGE.margin + gap) / (size + gap));
    for (let i = 0; i < input.thumbnails.length; i += perRow) {
      layout.ensure(size + 20);
      const top = layout.y;
      for (let k = 0; k < perRow && i + k < input.thumbnails.length; k++) {
        const thumbnail = input.thumbnails[i + k]!;
        const image = await doc.embedPng(thumbnail.png);
        const scale = Math.min(size / image.width, size / image.height);
        const x = PAGE.margin + k * (size + gap);
        layout.page.drawImage(image, {
          x: x + (size - image.width * scale) / 2,
          y: top - size + (size - image.height * scale) / 2,
          width: image.width * scale,
          height: image.height * scale,
        });
        layout.page.drawText(`Series ${thumbnail.seriesNumber}`, {
          x,
          y: top - size - 12,
          size: 8.5,
          font: fonts.regular,
          color: MUTED,
        });
      }
      layout.y = top - size - 20;
    }
  }

  const quality = Object.entries(input.quality ?? {});
  if (quality.length > 0) {
    layout.heading('Quality figures');
    layout.pairs(
      quality.map(([key, value]): [string, string] => [
        humanize(key),
        typeof value === 'number' ? formatNumber(value) : value,
      ]),
    );
  }

  return doc.save({ useObjectStreams: false });
}

function formatNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(1) : value.toPrecision(3);
}
