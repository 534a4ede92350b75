import { Box, Center, Spinner, Text } from '@chakra-ui/react';
import { Niivue, SHOW_RENDER, SLICE_TYPE } from '@niivue/niivue';
import { useEffect, useRef, useState } from 'react';
import type { ProcessedAsset } from '#shared/schemas/api/datasets.ts';
import { viewerFileName, type ViewerVolume } from '#web/features/visualizer/utils/viewer-assets.ts';

export type ViewMode = 'multiplanar' | 'render';
export type Layers = { fa: boolean; colorFa: boolean; surface: boolean; tracts: boolean };

type Props = {
  entry: ViewerVolume;
  surface?: ProcessedAsset;
  layers: Layers;
  mode: ViewMode;
  onError(message: string): void;
};

async function fetchAsset(asset: ProcessedAsset): Promise<ArrayBuffer> {
  if (!asset.url) throw new Error(`${asset.label} is not available to you.`);
  const response = await fetch(asset.url);
  if (!response.ok) throw new Error(`${asset.label} could not be downloaded (HTTP ${response.status}).`);
  return response.arrayBuffer();
}

/** NiiVue over the dataset's assets: the volume in multiplanar or 3D render view, with overlays and meshes on top. */
export function NiivueViewer({ entry, surface, layers, mode, onError }: Props) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const nvRef = useRef<Niivue | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    // Multiplanar shows the three planes only; the 3D render is its own view (it is the costly one without a GPU).
    const nv = new Niivue({
      backColor: [0, 0, 0, 1],
      show3Dcrosshair: true,
      isResizeCanvas: true,
      // The page shows its own "Loading volume..." over the canvas; NiiVue's text would sit under it.
      loadingText: '',
      multiplanarShowRender: SHOW_RENDER.NEVER,
    });
    nvRef.current = nv;
    // The page's own tests read pixels back after a draw; keep the instance next to its canvas, not on window.
    Object.assign(canvas, { niivue: nv });
    let cancelled = false;
    nv.attachToCanvas(canvas)
      .then(() => !cancelled && setReady(true))
      .catch((e: unknown) => onError(e instanceof Error ? e.message : 'WebGL2 is not available in this browser.'));
    return () => {
      cancelled = true;
      nvRef.current = undefined;
      setReady(false);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const nv = nvRef.current;
    if (!nv || !ready) return;
    let cancelled = false;
    setLoading(true);
    (async () => {
      const overlays = [
        layers.fa && entry.fa ? { asset: entry.fa, colormap: 'warm', opacity: 0.6 } : undefined,
        layers.colorFa && entry.colorFa ? { asset: entry.colorFa, colormap: 'gray', opacity: 0.7 } : undefined,
      ].filter((o) => o !== undefined);
      // NiiVue's loadVolumes drops a given buffer, so each downloaded volume is handed over as a blob URL with its file name.
      const toBlobUrl = (buffer: ArrayBuffer) => URL.createObjectURL(new Blob([buffer]));
      const volumeList = await Promise.all([
        fetchAsset(entry.volume).then((buffer) => ({
          url: toBlobUrl(buffer),
          name: viewerFileName(entry.volume),
          colormap: 'gray',
          opacity: 1,
        })),
        ...overlays.map((o) =>
          fetchAsset(o.asset).then((buffer) => ({
            url: toBlobUrl(buffer),
            name: viewerFileName(o.asset),
            colormap: o.colormap,
            opacity: o.opacity,
          })),
        ),
      ]);
      const meshAssets = [layers.surface ? surface : undefined, layers.tracts ? entry.tracts : undefined].filter(
        (a): a is ProcessedAsset => !!a,
      );
      const meshList = await Promise.all(
        meshAssets.map(async (asset) => ({
          url: viewerFileName(asset),
          name: viewerFileName(asset),
          buffer: await fetchAsset(asset),
        })),
      );
      if (cancelled) return volumeList.forEach((v) => URL.revokeObjectURL(v.url));
      await nv.loadVolumes(volumeList).finally(() => volumeList.forEach((v) => URL.revokeObjectURL(v.url)));
      await nv.loadMeshes(meshList);
      if (layers.surface && surface) {
        const mesh = nv.meshes.find((m) => m.name === viewerFileName(surface));
        if (mesh) nv.setMeshProperty(mesh.id as unknown as number, 'opacity', 0.5);
      }
      nv.setSliceType(mode === 'render' ? SLICE_TYPE.RENDER : SLICE_TYPE.MULTIPLANAR);
      nv.drawScene();
      const canvas = canvasRef.current;
      if (canvas) {
        canvas.dataset.volumes = String(nv.volumes.length);
        canvas.dataset.meshes = String(nv.meshes.length);
        canvas.dataset.loaded = `${entry.volume.id}|${mode}|${Object.entries(layers)
          .filter(([, v]) => v)
          .map(([k]) => k)
          .join(',')}`;
      }
    })()
      .catch(
        (e: unknown) => !cancelled && onError(e instanceof Error ? e.message : 'The dataset could not be displayed.'),
      )
      .finally(() => !cancelled && setLoading(false));
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready, entry, surface, layers.fa, layers.colorFa, layers.surface, layers.tracts]);

  useEffect(() => {
    const nv = nvRef.current;
    if (!nv || !ready || loading) return;
    nv.setSliceType(mode === 'render' ? SLICE_TYPE.RENDER : SLICE_TYPE.MULTIPLANAR);
    const canvas = canvasRef.current;
    if (canvas?.dataset.loaded)
      canvas.dataset.loaded = canvas.dataset.loaded.replace(/\|(multiplanar|render)\|/, `|${mode}|`);
  }, [mode, ready, loading]);

  return (
    <Box position="relative" w="full" h="full" bg="black">
      <canvas
        ref={canvasRef}
        data-testid="niivue-canvas"
        data-loading={loading ? 'true' : 'false'}
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
