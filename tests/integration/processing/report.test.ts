import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { buildReport, type ReportInput } from '#shared/processing/report.ts';
import { requireTool } from './fixtures.ts';

const PDFTOTEXT = '/usr/bin/pdftotext';

function gradientPng(size: number): Uint8Array {
  const png = new PNG({ width: size, height: size });
  for (let i = 0; i < size * size; i++) {
    const v = Math.round((255 * (i % size)) / size);
    png.data.set([v, v, v, 255], i * 4);
  }
  return PNG.sync.write(png);
}

function extractText(pdf: Uint8Array): string {
  requireTool(PDFTOTEXT, 'the Debian package poppler-utils');
  const dir = mkdtempSync(join(tmpdir(), 'iws-report-'));
  try {
    writeFileSync(join(dir, 'report.pdf'), pdf);
    return execFileSync(PDFTOTEXT, ['-layout', join(dir, 'report.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const INPUT: ReportInput = {
  dataset: {
    id: 'ds_7f3a',
    patientAlias: 'PT-****-0042',
    studyType: 'DIAGNOSTIC',
    studyDescription: 'MRI BRAIN W/O CONTRAST',
    clinicalIndication: 'Headache — rule out mass',
    orderingPhysician: 'Dr. Okafor',
    department: 'Neuroradiology',
    createdAt: '2025-03-04T10:00:00.000Z',
    hospitalName: 'Northside General',
  },
  anonymization: {
    retainPhysicianIdentity: true,
    retainInstitutionIdentity: true,
    retainUids: false,
    retainLongitudinalDates: true,
    retainPatientCharacteristics: false,
    keepPrivate: false,
  },
  series: [
    {
      seriesNumber: 601,
      description: 'WIP dti_ax',
      modality: 'MR',
      sliceCount: 640,
      classifiedType: 'DTI',
      confidence: 0.97,
      source: 'AI',
      bids: { datatype: 'dwi', suffix: 'dwi' },
    },
    {
      seriesNumber: 3,
      description: 'Accelerated SAG IR-SPGR',
      modality: 'MR',
      sliceCount: 196,
      classifiedType: 'T1',
      confidence: 0.91,
      source: 'MANUAL',
      bids: { datatype: 'anat', suffix: 'T1w' },
    },
  ],
  thumbnails: [
    { seriesNumber: 3, png: gradientPng(64) },
    { seriesNumber: 601, png: gradientPng(32) },
  ],
  quality: { meanFa: 0.2268, streamlines: 12047, surfaceClosed: 'yes' },
};

describe('buildReport', () => {
  it('writes a PDF whose extracted text holds the summary, de-identification, series table and quality figures', async () => {
    // Act
    const pdf = await buildReport(INPUT);
    const text = extractText(pdf);
    // Assess
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
    for (const expected of [
      'Dataset report',
      'ds_7f3a',
      'PT-****-0042',
      'Northside General',
      'Neuroradiology',
      'Dr. Okafor',
      'Annex E Basic Profile',
      'Retain Institution Identity',
      'Retain physician identity',
      'Retain longitudinal dates',
      'WIP dti_ax',
      'Accelerated SAG IR-SPGR',
      'DTI',
      'T1',
      '97%',
      '91%',
      'MANUAL',
      'dwi/dwi',
      'anat/T1w',
      '640',
      '196',
      'Series 3',
      'Series 601',
      'Mean fa',
      '0.227',
      '12047',
      'Surface closed',
    ]) {
      expect(text).toContain(expected);
    }
    // series come in series-number order
    expect(text.indexOf('Accelerated SAG IR-SPGR')).toBeLessThan(text.indexOf('WIP dti_ax'));
  });

  it('prints only what the de-identification options keep: no hospital, physician, indication or real date', async () => {
    // Prepare
    const strict = {
      ...INPUT,
      anonymization: { ...INPUT.anonymization, retainPhysicianIdentity: false, retainInstitutionIdentity: false },
    };

    // Act
    const pdf = await buildReport(strict);
    const text = extractText(pdf);

    // Assess
    expect(text).toContain('PT-****-0042');
    expect(text).toContain('MRI BRAIN W/O CONTRAST');
    for (const withheld of ['Northside General', 'Neuroradiology', 'Dr. Okafor', 'Okafor', 'Headache', '2025', '2026'])
      expect(text).not.toContain(withheld);
    expect(text).not.toMatch(/\b(19|20)\d\d-\d\d-\d\d/);
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    expect(doc.getCreationDate()).toBeUndefined();
    expect(doc.getModificationDate()).toBeUndefined();
  });

  it('never prints the clinical indication or a real date, even with every option kept', async () => {
    // Act
    const text = extractText(await buildReport(INPUT));

    // Assess
    expect(text).not.toContain('Headache');
    expect(text).not.toMatch(/\b(19|20)\d\d-\d\d-\d\d/);
  });

  it('embeds one image per thumbnail', async () => {
    // Act
    const pdf = await buildReport(INPUT);
    const doc = await PDFDocument.load(pdf);
    // Assess
    const images = doc.context
      .enumerateIndirectObjects()
      .filter(([, object]) => object.toString().includes('/Subtype /Image'));
    expect(images).toHaveLength(2);
  });

  it('continues a long series table on further pages', async () => {
    // Prepare
    const series = Array.from({ length: 120 }, (_, i) => ({
      ...INPUT.series[0]!,
      seriesNumber: i + 1,
      description: `Series description ${i + 1}`,
    }));
    // Act
    const pdf = await buildReport({ ...INPUT, series, thumbnails: [] });
    const text = extractText(pdf);
    // Assess
    expect((await PDFDocument.load(pdf)).getPageCount()).toBeGreaterThan(1);
    expect(text).toContain('Series description 1 ');
    expect(text).toContain('Series description 120');
  });
});
