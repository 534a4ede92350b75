import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { phantomNifti } from '#tests/helpers/nifti-phantom.ts';
import { plantViewerStudy, VIEWER_MEMBER } from '#tests/helpers/viewer-study.ts';
import type { TestStack } from '#tests/helpers/local-stack.ts';
import { outputPath, sampleViewerCanvas, useSiteInBrowser } from './browser.ts';

/** Three series of one study in one scanner space (the phantom is centred on the origin): a T1, a T2 and a 4D DWI. */
const SERIES = [
  { id: 'vol-t1', label: 'Sag T1 MPRAGE (NIfTI)', classifiedType: 'T1', dims: [64, 64, 48], mm: [3, 3, 4] },
  { id: 'vol-t2', label: 'Ax T2 TSE (NIfTI)', classifiedType: 'T2', dims: [48, 48, 32], mm: [4, 4, 6] },
  { id: 'vol-dwi', label: 'Ax DWI b1000 (NIfTI)', classifiedType: 'DWI', dims: [48, 48, 32, 3], mm: [4, 4, 6] },
] as const;

let datasetId = '';

async function plant(stack: TestStack) {
  datasetId = await plantViewerStudy(
    stack,
    'Viewer reading session',
    SERIES.map((s) => ({
      id: s.id,
      label: s.label,
      classifiedType: s.classifiedType,
      nifti: phantomNifti({
        dims: [...s.dims] as [number, number, number],
        voxelMm: [...s.mm],
        contrast: s.classifiedType === 'T1' ? 'T1' : s.classifiedType === 'T2' ? 'T2' : 'DWI',
      }),
    })),
  );
}

type CanvasId = 'niivue-canvas' | 'niivue-canvas-compare';

/** Waits until the pane's canvas shows the series (loaded, not loading). */
async function waitForSeries(page: Page, canvas: CanvasId, volumeId: string) {
  await page.waitForFunction(
    ([testId, id]) => {
      const el = document.querySelector(`[data-testid="${testId}"]`) as HTMLCanvasElement | null;
      return !!el && el.dataset.loading === 'false' && (el.dataset.loaded ?? '').startsWith(`${id}|`);
    },
    [canvas, volumeId] as const,
    { timeout: 20_000, polling: 100 },
  );
}

/** The crosshair of a pane in scanner millimetres and in voxels, as NiiVue holds it. */
async function crosshair(page: Page, canvas: CanvasId): Promise<{ mm: number[]; vox: number[] }> {
  return page.evaluate((testId) => {
    type Nv = {
      scene: { crosshairPos: number[] };
      frac2mm(frac: number[]): ArrayLike<number>;
      frac2vox(frac: number[]): ArrayLike<number>;
    };
    const el = document.querySelector(`[data-testid="${testId}"]`) as HTMLCanvasElement & { niivue: Nv };
    const nv = el.niivue;
    return {
      mm: Array.from(nv.frac2mm(nv.scene.crosshairPos)).slice(0, 3),
      vox: Array.from(nv.frac2vox(nv.scene.crosshairPos)),
    };
  }, canvas);
}

describe('the viewer reads as clinicians read', () => {
  const site = useSiteInBrowser({ seed: plant, signInAs: VIEWER_MEMBER });

  it('lists every series, switches without reloading the page, and links a second series side by side', async () => {
    // Prepare
    const { page } = site.browser;
    await page.goto(`${site.stack.url}/visualizer/${datasetId}`);
    await page.getByTestId('series-item').first().waitFor();
    const first = await page.getByTestId('series-item').first().getAttribute('data-series-id');
    await waitForSeries(page, 'niivue-canvas', first!);
    await page.evaluate(() => Object.assign(window, { samePage: true }));

    // Act: switch to the T2, then compare it with the T1, crosshairs linked
    const listed = await page.getByTestId('series-item').evaluateAll((items) => items.map((i) => i.dataset.seriesId));
    await page.getByTestId('series-item').filter({ hasText: 'Ax T2 TSE' }).getByRole('button').first().click();
    await waitForSeries(page, 'niivue-canvas', 'vol-t2');
    await page.getByRole('button', { name: 'Compare with Sag T1 MPRAGE (NIfTI)' }).click();
    await waitForSeries(page, 'niivue-canvas-compare', 'vol-t1');
    await page.getByLabel('Layout').selectOption('axial');
    const primary = page.getByTestId('niivue-canvas');
    await primary.focus();
    const box = (await primary.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.4, box.y + box.height * 0.45);
    const afterClick = {
      primary: await crosshair(page, 'niivue-canvas'),
      compare: await crosshair(page, 'niivue-canvas-compare'),
    };
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('PageUp');
    const afterKeys = {
      primary: await crosshair(page, 'niivue-canvas'),
      compare: await crosshair(page, 'niivue-canvas-compare'),
    };
    const kinds = [
      await page.getByTestId('series-kind-primary').textContent(),
      await page.getByTestId('series-kind-compare').textContent(),
    ];
    const samePage = await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage);
    await page.screenshot({ path: outputPath('viewer-linked.png') });
    // The 3D render of the same loaded volume (no second load: NiiVue keeps the very same image object).
    const keepVolume = () =>
      page.evaluate(() => {
        const el = document.querySelector('[data-testid="niivue-canvas"]') as HTMLCanvasElement & {
          niivue: { volumes: object[] };
        };
        const w = window as unknown as { shownVolume?: object };
        const same = w.shownVolume === el.niivue.volumes[0];
        w.shownVolume = el.niivue.volumes[0];
        return same;
      });
    await keepVolume();
    await page.getByLabel('Layout').selectOption('render');
    await page.waitForFunction(() =>
      (document.querySelector<HTMLCanvasElement>('[data-testid="niivue-canvas"]')?.dataset.loaded ?? '').includes(
        '|render|',
      ),
    );
    const rendered = await sampleViewerCanvas(page);
    const sameVolume = await keepVolume();

    // Assess
    expect(listed.sort()).toEqual(['vol-dwi', 'vol-t1', 'vol-t2']);
    expect(samePage).toBe(true);
    expect(sameVolume).toBe(true);
    expect(rendered.nonBackground).toBeGreaterThan(500);
    expect(kinds).toEqual(['T2', 'T1']);
    // The compare pane follows the clicked point within one of its voxels (the T1's voxels are 3 x 3 x 4 mm).
    afterClick.primary.mm.forEach((v, i) => expect(Math.abs(v - afterClick.compare.mm[i]!)).toBeLessThanOrEqual(4));
    // One slice up, then ten: eleven axial slices of the T2 (6 mm each), and the T1 pane moved with it.
    expect(afterKeys.primary.vox[2]! - afterClick.primary.vox[2]!).toBe(11);
    // (NiiVue snaps a stepped crosshair to the voxel's centre, so the millimetres move by 66 give or take one voxel.)
    expect(Math.abs(afterKeys.primary.mm[2]! - afterClick.primary.mm[2]! - 66)).toBeLessThanOrEqual(6);
    expect(Math.abs(afterKeys.compare.mm[2]! - afterKeys.primary.mm[2]!)).toBeLessThanOrEqual(4);
  }, 60_000);

  it('applies a window preset of the series type and measures a distance and an angle with NiiVue', async () => {
    // Prepare
    const { page } = site.browser;
    await page.goto(`${site.stack.url}/visualizer/${datasetId}`);
    await page.getByTestId('series-item').filter({ hasText: 'Ax T2 TSE' }).getByRole('button').first().click();
    await waitForSeries(page, 'niivue-canvas', 'vol-t2');
    await page.getByLabel('Layout').selectOption('axial');

    // Act: the T2 fluid window, then a distance drawn across the axial slice
    const presets = await page.getByLabel('Window preset', { exact: true }).locator('option').allTextContents();
    await page.getByLabel('Window preset', { exact: true }).selectOption('t2-fluid');
    await page.waitForFunction(
      () => !!document.querySelector<HTMLCanvasElement>('[data-testid="niivue-canvas"]')?.dataset.window,
    );
    const applied = await page.evaluate(() => {
      const el = document.querySelector('[data-testid="niivue-canvas"]') as HTMLCanvasElement & {
        niivue: { volumes: { cal_min: number; cal_max: number; robust_min: number; robust_max: number }[] };
      };
      const v = el.niivue.volumes[0]!;
      return {
        window: el.dataset.window,
        calMin: v.cal_min,
        calMax: v.cal_max,
        robustMin: v.robust_min,
        robustMax: v.robust_max,
      };
    });
    await page.getByRole('button', { name: 'Distance' }).click();
    const canvas = page.getByTestId('niivue-canvas');
    const box = (await canvas.boundingBox())!;
    const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.mouse.move(cx - 80, cy);
    await page.mouse.down();
    await page.mouse.move(cx, cy, { steps: 5 });
    await page.mouse.move(cx + 80, cy, { steps: 5 });
    await page.mouse.up();
    await page.waitForFunction(
      () => !!document.querySelector<HTMLCanvasElement>('[data-testid="niivue-canvas"]')?.dataset.lastMeasurement,
    );
    const measured = await canvas.getAttribute('data-last-measurement');
    const readout = await page.getByTestId('measurement-readout').textContent();
    // An angle: the first line dragged, the second drawn from its end to a click, at a right angle.
    await page.getByRole('button', { name: 'Angle' }).click();
    await page.mouse.move(cx - 80, cy + 40);
    await page.mouse.down();
    await page.mouse.move(cx, cy + 40, { steps: 5 });
    await page.mouse.up();
    await page.mouse.move(cx, cy - 40, { steps: 5 });
    await page.mouse.click(cx, cy - 40);
    await page.waitForFunction(() =>
      (
        document.querySelector<HTMLCanvasElement>('[data-testid="niivue-canvas"]')?.dataset.lastMeasurement ?? ''
      ).startsWith('angle:'),
    );
    const angle = await canvas.getAttribute('data-last-measurement');
    const angleReadout = await page.getByTestId('measurement-readout').textContent();
    await page.screenshot({ path: outputPath('viewer-measure.png') });

    // Assess
    expect(presets).toEqual(['Automatic (robust range)', 'T2 brain', 'T2 fluid', 'Full range']);
    const width = applied.robustMax - applied.robustMin;
    expect(applied.calMin).toBeCloseTo(applied.robustMin + 0.3 * width, 3);
    expect(applied.calMax).toBeCloseTo(applied.robustMin + 1.1 * width, 3);
    expect(applied.window).toBe(`${applied.calMin},${applied.calMax}`);
    expect(measured).toMatch(/^distance:\d+\.\d\d$/);
    const mm = Number(measured!.split(':')[1]);
    // 160 screen pixels across a 192 mm field of view shown in a canvas a few hundred pixels wide.
    expect(mm).toBeGreaterThan(20);
    expect(mm).toBeLessThan(192);
    expect(readout).toMatch(/^Distance \d+\.\d mm$/);
    expect(Math.abs(Number(readout!.split(' ')[1]) - mm)).toBeLessThanOrEqual(0.06);
    expect(Math.abs(Number(angle!.split(':')[1]) - 90)).toBeLessThanOrEqual(1);
    expect(angleReadout).toMatch(/^Angle (89|90)\.\d°$/);
  }, 60_000);
});
