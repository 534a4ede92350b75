import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { TEST_DEMO_PASSWORD } from '#tests/helpers/local-stack.ts';
import { SHARED_DATA } from '#tests/helpers/shared-data.ts';
import { outputPath, signInThroughSite, useSiteInBrowser } from './browser.ts';
import { runWizardToUpload } from './wizard.ts';

/** `<bucket>/<key>#<partNumber>` of a presigned part PUT. */
function partOf(url: string): string | undefined {
  const u = new URL(url);
  const part = u.searchParams.get('partNumber');
  return part && u.searchParams.has('uploadId') ? `${u.pathname}#${part}` : undefined;
}

/**
 * Watches part PUTs of one page: every request, and those the storage answered 200. Parts `hold(part)` names never
 * reach the storage (the request fails as on a dropped connection), so a test can stop half-way.
 */
async function watchParts(page: Page, hold: (part: string) => boolean) {
  const sent: string[] = [];
  const stored = new Set<string>();
  await page.route(
    (url) => partOf(url.toString()) !== undefined,
    async (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      const part = partOf(route.request().url())!;
      sent.push(part);
      if (hold(part)) return route.abort('connectionreset').catch(() => undefined);
      await route.continue().catch(() => undefined);
    },
  );
  page.on('response', (response) => {
    const part = partOf(response.url());
    if (part && response.request().method() === 'PUT' && response.status() === 200) stored.add(part);
  });
  return { sent, stored };
}

/**
 * A closed tab resumes where it stopped (docs/states.md#resume): the page is closed mid-upload (the study's archive
 * has its first part stored, the others' connections drop), opened again, the user picks the same folder, and only the parts
 * the storage did not hold are sent.
 */
describe('resuming an upload after the tab was closed', () => {
  const site = useSiteInBrowser();

  it('sends no finished part twice', async () => {
    // Prepare
    const folder = join(SHARED_DATA, 'dicom/ge-t1-ir-spgr/dicom');
    const first = site.browser.page;
    await signInThroughSite(first, site.stack.url, 'member@northside.demo.local', TEST_DEMO_PASSWORD, {
      remember: true,
    });
    const firstParts = await watchParts(first, (part) => !part.endsWith('#1'));
    const sessionBodies: string[] = [];
    let partCount = 0;
    first.on('request', (request) => {
      if (request.url().endsWith('/upload/session')) sessionBodies.push(request.postData() ?? '');
    });
    first.on('response', (response) => {
      if (response.url().endsWith('/upload/session'))
        void response.json().then((session: { partCount: number }) => (partCount = session.partCount));
    });

    // Act: start, then close the tab once some parts are stored
    const { validFiles } = await runWizardToUpload(
      first,
      site.stack.url,
      {
        mrn: 'RESUME-01',
        studyType: 'Follow-up',
        studyDescription: 'Resumed upload T1',
        orderingPhysician: 'Dr. Rosalind Franklin',
        department: 'Radiology',
        clinicalIndication: 'Follow-up after resection',
      },
      folder,
    );
    const deadline = Date.now() + 120_000;
    while (firstParts.stored.size < 1 && Date.now() < deadline) await first.waitForTimeout(100);
    await first.close({ runBeforeUnload: false });
    const storedBeforeClose = new Set(firstParts.stored);

    const second = await site.browser.browser.newPage();
    const secondParts = await watchParts(second, () => false);
    await second.goto(`${site.stack.url}/upload`);
    await second.getByTestId('resume-upload').waitFor({ timeout: 30_000 });
    await second.getByTestId('resume-upload').getByTestId('folder-input').setInputFiles(folder);
    await second.getByText('All files uploaded').waitFor({ timeout: 300_000 });
    const skippedLine = (await second.getByTestId('upload-bytes').textContent()) ?? '';
    const resent = secondParts.sent.filter((part) => storedBeforeClose.has(part));
    writeFileSync(
      outputPath('resume-upload.json'),
      JSON.stringify(
        {
          partsSentBeforeClose: firstParts.sent,
          partsStoredBeforeClose: storedBeforeClose.size,
          partsPutAfterResume: secondParts.sent.length,
          partsResentThatWereStored: resent.length,
          partsStoredAfterResume: secondParts.stored.size,
          skippedLine,
        },
        null,
        2,
      ),
    );

    // Assess
    expect(validFiles).toBe(196);
    // The session knows the files by key only: no folder or file name reached the server.
    const opened = JSON.parse(sessionBodies[0]!) as { files: Record<string, unknown>[] };
    expect(opened.files).toHaveLength(196);
    expect(opened.files.every((f) => /^[0-9a-f]{64}$/.test(String(f.fileKey)) && !('path' in f))).toBe(true);
    expect(sessionBodies.join('\n')).not.toMatch(/\.dcm|dicom\//);
    // 196 files, 26 MiB: one archive of two 16 MiB parts, whatever the file count.
    expect(partCount).toBe(2);
    expect(storedBeforeClose.size).toBe(1);
    expect(resent).toEqual([]);
    // Parts in flight when the tab closed may have reached the storage without the page seeing the answer: the
    // server counts them as held, so held + sent after resume must be every part, and held ≥ what the page saw stored.
    const skipped = Number(/(\d+) parts already on the server were not sent again/.exec(skippedLine)?.[1] ?? -1);
    expect(skipped).toBeGreaterThanOrEqual(storedBeforeClose.size);
    expect(skipped + secondParts.stored.size).toBe(partCount);
    expect(secondParts.sent.length).toBe(secondParts.stored.size);
  }, 900_000);
});
