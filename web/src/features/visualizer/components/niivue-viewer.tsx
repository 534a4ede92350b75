import { Box, Center, Spinner, Text } from '@chakra-ui/react';
import { DRAG_MODE, Niivue, SHOW_RENDER, SLICE_TYPE } from '@niivue/niivue';
import { useEffect, useRef, useState } from 'react';
import type { ProcessedAsset } from '#shared/schemas/api/datasets.ts';
import { viewerFileName, type ViewerVolume } from '#web/features/visualizer/utils/viewer-assets.ts';
import { assetBytes } from '#web/features/visualizer/utils/volume-cache.ts';
import type { VolumeRange, WindowRange } from '#web/features/visualizer/utils/window-presets.ts';

export type Layout = 'multiplanar' | 'axial' | 'coronal' | 'sagittal' | 'render';
export type Tool = 'crosshair' | 'distance' | 'angle';
export type Layers = { fa: boolean; colorFa: boolean; surface: boolean; tracts: boolean };
export type Measurement = { kind: 'distance'; value: number } | { kind: 'angle'; value: number };

type Props = {
  entry: ViewerVolume;
  surface?: ProcessedAsset;
  layers: Layers;
  layout: Layout;
  tool: Tool;
  /** The display window of the series; undefined keeps the one NiiVue opened it with. */
  window?: WindowRange;
  testId?: string;
  /** The NiiVue instance once it is attached (undefined when the pane goes), so the page can link two panes. */
  onInstance?(nv: Niivue | undefined): void;
  onVolumeLoaded?(range: VolumeRange): void;
  onMeasurement?(measurement: Measurement): void;
  onError(message: string): void;
};

const SLICE_OF: Record<Layout, SLICE_TYPE> = {
  multiplanar: SLICE_TYPE.MULTIPLANAR,
  axial: SLICE_TYPE.AXIAL,
  coronal: SLICE_TYPE.CORONAL,
  sagittal: SLICE_TYPE.SAGITTAL,
  render: SLICE_TYPE.RENDER,
};

const DRAG_OF: Record<Tool, DRAG_MODE> = {
  crosshair: DRAG_MODE.crosshair,
  distance: DRAG_MODE.measurement,
  angle: DRAG_MODE.angle,
};

/** Voxel steps of one key press: arrows one slice, PageUp/PageDown ten. */
const KEY_STEPS: Record<string, number> = { ArrowUp: 1, ArrowDown: -1, PageUp: 10, PageDown: -10 };

/** The voxel axis (x, y, z in RAS order) a layout steps through: multiplanar and render step the axial planes. */
const STEP_AXIS: Record<Layout, 0 | 1 | 2> = { multiplanar: 2, axial: 2, coronal: 1, sagittal: 0, render: 2 };

/** Marks the page's timeline once per page, for the viewer bench (bench/viewer.ts) and the browser tests. */
function markOnce(name: string) {
  if (performance.getEntriesByName(name).length === 0) performance.mark(name);
}

/**
 * Draws and waits for the pixels: a one-pixel read returns only once the GPU (SwiftShader without one) has drawn the
 * frame, so a mark set after it follows the image on screen, not the call that asked for it.
 */
function drawAndWait(nv: Niivue) {
  nv.drawScene();
  nv.gl?.readPixels(0, 0, 1, 1, nv.gl.RGBA, nv.gl.UNSIGNED_BYTE, new Uint8Array(4));
}

/**
 * NiiVue over one series (docs/screens.md#visualizer): the volume downloaded once and loaded once, the layout, window,
 * tool and overlays changed on the loaded volume. Only what the layout shows is computed: the multiplanar view has no
 * 3D tile, and the lighting gradient is built only for a lit 3D render (web/build/niivue-gradient-on-demand.ts).
 */
export function NiivueViewer(props: Props) {
  const { entry, surface, layers, layout, tool, window, testId = 'niivue-canvas', onError } = props;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const nvRef = useRef<Niivue | undefined>(undefined);
  const callbacks = useRef(props);
  callbacks.current = props;
  const layoutRef = useRef(layout);
  layoutRef.current = layout;
  // The asset list is fetched again for fresh URLs (every few minutes): the effects follow the ids, not the objects.
  const entryRef = useRef(entry);
  entryRef.current = entry;
  const surfaceRef = useRef(surface);
  surfaceRef.current = surface;
  const [ready, setReady] = useState(false);
  /** The id of the base volume NiiVue holds, once it is drawn. */
  const [loadedId, setLoadedId] = useState<string>();
  const [overlaysBusy, setOverlaysBusy] = useState(false);
  /** The layers NiiVue shows on the loaded volume ("fa,tracts"), once they are drawn. */
  const [shownLayers, setShownLayers] = useState<string>();
  const layersKey = Object.entries(layers)
    .filter(([, v]) => v)
    .map(([k]) => k)
    .join(',');

  // The download starts with the page, in parallel with NiiVue's start (its shaders compile meanwhile).
  useEffect(() => {
    assetBytes(entryRef.current.volume).catch(() => undefined);
  }, [entry.volume.id]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    markOnce('iws-viewer-mounted');
    const nv = new Niivue({
      backColor: [0, 0, 0, 1],
      show3Dcrosshair: true,
      isResizeCanvas: true,
      // The page shows its own "Loading volume..." over the canvas; NiiVue's text would sit under it.
      loadingText: '',
      // Multiplanar shows the three planes only; the 3D render is its own layout (the costly one without a GPU).
      multiplanarShowRender: SHOW_RENDER.NEVER,
      sliceType: SLICE_OF[layoutRef.current],
    });
    nvRef.current = nv;
    // The page's own tests read NiiVue's state and pixels; keep the instance next to its canvas, not on window.
    Object.assign(canvas, { niivue: nv });
    nv.onMeasurementCompleted = (m) => {
      canvas.dataset.lastMeasurement = `distance:${m.distance.toFixed(2)}`;
      callbacks.current.onMeasurement?.({ kind: 'distance', value: m.distance });
    };
    nv.onAngleCompleted = (a) => {
      canvas.dataset.lastMeasurement = `angle:${a.angle.toFixed(1)}`;
      callbacks.current.onMeasurement?.({ kind: 'angle', value: a.angle });
    };
    const onKey = (e: KeyboardEvent) => {
      const step = KEY_STEPS[e.key];
      if (step === undefined || nv.volumes.length === 0 || layoutRef.current === 'render') return;
      e.preventDefault();
      const move: [number, number, number] = [0, 0, 0];
      move[STEP_AXIS[layoutRef.current]] = step;
      nv.moveCrosshairInVox(...move);
      canvas.dataset.crosshair = Array.from(nv.frac2vox(nv.scene.crosshairPos)).join(',');
    };
    canvas.addEventListener('keydown', onKey);
    let cancelled = false;
    nv.attachToCanvas(canvas)
      .then(() => {
        if (cancelled) return;
        markOnce('iws-viewer-niivue-ready');
        setReady(true);
        callbacks.current.onInstance?.(nv);
      })
      .catch((e: unknown) => onError(e instanceof Error ? e.message : 'WebGL2 is not available in this browser.'));
    return () => {
      cancelled = true;
      canvas.removeEventListener('keydown', onKey);
      // NiiVue's own listeners and resize observers go with the pane (a closed compare pane leaves nothing behind).
      nv.cleanup();
      callbacks.current.onInstance?.(undefined);
      nvRef.current = undefined;
      setReady(false);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The base volume: loaded when the series changes, and only then.
  useEffect(() => {
    const nv = nvRef.current;
    if (!nv || !ready) return;
    let cancelled = false;
    setLoadedId(undefined);
    const { volume: asset } = entryRef.current;
    (async () => {
      const buffer = await assetBytes(asset);
      if (cancelled) return;
      markOnce('iws-viewer-volume-downloaded');
      // NiiVue's loadVolumes drops a given buffer, so the volume is handed over as a blob URL with its file name.
      const url = URL.createObjectURL(new Blob([buffer]));
      try {
        await nv.loadVolumes([{ url, name: viewerFileName(asset), colormap: 'gray', opacity: 1 }]);
      } finally {
        URL.revokeObjectURL(url);
      }
      if (cancelled) return;
      nv.setSliceType(SLICE_OF[layoutRef.current]);
      drawAndWait(nv);
      markOnce('iws-viewer-first-slice');
      const volume = nv.volumes[0]!;
      callbacks.current.onVolumeLoaded?.({
        robustMin: volume.robust_min ?? volume.cal_min ?? 0,
        robustMax: volume.robust_max ?? volume.cal_max ?? 1,
        globalMin: volume.global_min ?? 0,
        globalMax: volume.global_max ?? 1,
      });
      setLoadedId(asset.id);
    })().catch(
      (e: unknown) => !cancelled && onError(e instanceof Error ? e.message : 'The dataset could not be displayed.'),
    );
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready, entry.volume.id]);

  // Overlays and meshes on the loaded volume: a layer switch adds or removes its layer, the base volume stays.
  useEffect(() => {
    const nv = nvRef.current;
    const entry = entryRef.current;
    const surface = surfaceRef.current;
    if (!nv || loadedId !== entry.volume.id) return;
    let cancelled = false;
    setOverlaysBusy(true);
    (async () => {
      const overlays = [
        layers.fa && entry.fa ? { asset: entry.fa, colormap: 'warm', opacity: 0.6 } : undefined,
        layers.colorFa && entry.colorFa ? { asset: entry.colorFa, colormap: 'gray', opacity: 0.7 } : undefined,
      ].filter((o) => o !== undefined);
      const meshAssets = [layers.surface ? surface : undefined, layers.tracts ? entry.tracts : undefined].filter(
        (a): a is ProcessedAsset => !!a,
      );
      const [overlayBuffers, meshBuffers] = await Promise.all([
        Promise.all(overlays.map((o) => assetBytes(o.asset))),
        Promise.all(meshAssets.map((a) => assetBytes(a))),
      ]);
      if (cancelled) return;
      while (nv.volumes.length > 1) nv.removeVolume(nv.volumes[nv.volumes.length - 1]!);
      for (const [i, overlay] of overlays.entries()) {
        const url = URL.createObjectURL(new Blob([overlayBuffers[i]!]));
        try {
          await nv.addVolumeFromUrl({
            url,
            name: viewerFileName(overlay.asset),
            colormap: overlay.colormap,
            opacity: overlay.opacity,
          });
        } finally {
          URL.revokeObjectURL(url);
        }
      }
      if (nv.meshes.length > 0 || meshAssets.length > 0)
        await nv.loadMeshes(
          meshAssets.map((asset, i) => ({
            url: viewerFileName(asset),
            name: viewerFileName(asset),
            buffer: meshBuffers[i]!,
          })),
        );
      if (layers.surface && surface) {
        const mesh = nv.meshes.find((m) => m.name === viewerFileName(surface));
        if (mesh) nv.setMeshProperty(mesh.id as unknown as number, 'opacity', 0.5);
      }
      drawAndWait(nv);
      if (cancelled) return;
      markOnce('iws-viewer-interactive');
      const canvas = canvasRef.current;
      if (canvas) {
        canvas.dataset.volumes = String(nv.volumes.length);
        canvas.dataset.meshes = String(nv.meshes.length);
      }
      setShownLayers(`${entry.volume.id}|${layersKey}`);
    })()
      .catch(
        (e: unknown) => !cancelled && onError(e instanceof Error ? e.message : 'The dataset could not be displayed.'),
      )
      .finally(() => !cancelled && setOverlaysBusy(false));
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [
    loadedId,
    entry.fa?.id,
    entry.colorFa?.id,
    entry.tracts?.id,
    surface?.id,
    layers.fa,
    layers.colorFa,
    layers.surface,
    layers.tracts,
  ]);

  useEffect(() => {
    const nv = nvRef.current;
    if (!nv || !loadedId) return;
    nv.setSliceType(SLICE_OF[layout]);
  }, [layout, loadedId]);

  useEffect(() => {
    const nv = nvRef.current;
    if (!nv || !ready) return;
    // The left button does what the tool says; the right button keeps adjusting the window, except with the angle tool:
    // NiiVue draws an angle's second line with no button held, following this mode. Setting it also drops a half-drawn
    // angle when the tool changes.
    nv.setDragMode(tool === 'angle' ? DRAG_MODE.angle : DRAG_MODE.contrast);
    nv.opts.dragModePrimary = DRAG_OF[tool];
  }, [tool, ready]);

  useEffect(() => {
    const nv = nvRef.current;
    const volume = nv?.volumes[0];
    if (!nv || !loadedId || !volume || !window) return;
    volume.cal_min = window.min;
    volume.cal_max = window.max;
    nv.updateGLVolume();
    const canvas = canvasRef.current;
    if (canvas) canvas.dataset.window = `${window.min},${window.max}`;
  }, [window, loadedId]);

  // Loading until the layers asked for are drawn: a switch flips the prop before its effect starts.
  const loading = loadedId !== entry.volume.id || overlaysBusy || shownLayers !== `${entry.volume.id}|${layersKey}`;
  return (
    <Box position="relative" w="full" h="full" bg="black">
      <canvas
        ref={canvasRef}
        data-testid={testId}
        data-loading={loading ? 'true' : 'false'}
        data-loaded={
          loading ? undefined : `${entry.volume.id}|${layout === 'render' ? 'render' : 'multiplanar'}|${layersKey}`
        }
        data-layout={layout}
        style={{ width: '100%', height: '100%', display: 'block' }}
      />
      {loading && (
        <Center position="absolute" inset="0" pointerEvents="none">
          <Spinner color="white" size="lg" />
          <Text color="white" ms="3">
            Loading volume...
          </Text>
        </Center>
      )}
    </Box>
  );
}
