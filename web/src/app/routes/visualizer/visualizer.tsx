import { Box, Button, Center, Flex, Heading, HStack, IconButton, Stack, Switch, Text } from '@chakra-ui/react';
import type { Niivue } from '@niivue/niivue';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { LuArrowLeft, LuColumns2, LuInfo, LuMaximize, LuMinimize } from 'react-icons/lu';
import { Link, Navigate, useParams } from 'react-router-dom';
import { EmptyBlock, PageSpinner } from '#web/components/ui/page-states.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { paths } from '#web/config/paths.ts';
import { useAssets } from '#web/features/datasets/api/get-assets.ts';
import { useDataset } from '#web/features/datasets/api/get-dataset.ts';
import type { Layers, Layout, Measurement, Tool } from '#web/features/visualizer/components/niivue-viewer.tsx';
import { ViewerPane } from '#web/features/visualizer/components/viewer-pane.tsx';
import { groupViewerAssets, physicianLastName } from '#web/features/visualizer/utils/viewer-assets.ts';
import { assetBytes } from '#web/features/visualizer/utils/volume-cache.ts';
import { seriesKind } from '#web/features/visualizer/utils/window-presets.ts';
import { ApiRequestError } from '#shared/client/api-error.ts';
import { errorMessage } from '#web/lib/api-error.ts';

const NOT_FOUND_REDIRECT_MS = 4000;
const NO_LAYERS: Layers = { fa: false, colorFa: false, surface: false, tracts: false };

/** /visualizer/{id}: the in-page 3D viewer over the dataset's processed assets (docs/screens.md#visualizer). */
export function VisualizerRoute() {
  const { datasetId } = useParams();
  const { data: dataset, error, isLoading } = useDataset(datasetId);
  // Asked together with the dataset (not after it), so the volume's download starts one round trip earlier.
  const { data: assets, error: assetsError } = useAssets(datasetId);
  const [seriesIndex, setSeriesIndex] = useState(0);
  const [compareIndex, setCompareIndex] = useState<number>();
  const [linked, setLinked] = useState(true);
  const [layout, setLayout] = useState<Layout>('multiplanar');
  const [tool, setTool] = useState<Tool>('crosshair');
  const [measurement, setMeasurement] = useState<Measurement>();
  const [instances, setInstances] = useState<{ primary?: Niivue; compare?: Niivue }>({});
  const [layers, setLayers] = useState<Layers>({ fa: false, colorFa: false, surface: false, tracts: false });
  const [showInfo, setShowInfo] = useState(true);
  const [viewerError, setViewerError] = useState<string>();
  const [fullScreen, setFullScreen] = useState(false);
  const [redirect, setRedirect] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);

  const grouped = useMemo(() => groupViewerAssets(assets ?? []), [assets]);
  const entry = grouped.volumes[seriesIndex] ?? grouped.volumes[0];
  const compareEntry = compareIndex === undefined ? undefined : grouped.volumes[compareIndex];
  const notFound = error instanceof ApiRequestError && error.status === 404;

  // The first volume's download starts as soon as its URL is known, even while the dataset is still being read.
  const firstVolume = grouped.volumes[0]?.volume;
  useEffect(() => {
    if (firstVolume) assetBytes(firstVolume).catch(() => undefined);
  }, [firstVolume]);

  useEffect(() => {
    if (!notFound) return;
    const timer = setTimeout(() => setRedirect(true), NOT_FOUND_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [notFound]);

  const toggleFullScreen = useCallback(async () => {
    if (document.fullscreenElement) await document.exitFullscreen().catch(() => undefined);
    else await containerRef.current?.requestFullscreen().catch(() => undefined);
  }, []);

  useEffect(() => {
    const onChange = () => setFullScreen(!!document.fullscreenElement);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'F11') {
        e.preventDefault();
        void toggleFullScreen();
      } else if (e.key === 'Escape' && document.fullscreenElement) {
        void document.exitFullscreen().catch(() => undefined);
      }
    };
    document.addEventListener('fullscreenchange', onChange);
    window.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('fullscreenchange', onChange);
      window.removeEventListener('keydown', onKey);
    };
  }, [toggleFullScreen]);

  const onViewerError = useCallback((message: string) => setViewerError(message), []);
  const onPrimary = useCallback((nv: Niivue | undefined) => setInstances((i) => ({ ...i, primary: nv })), []);
  const onCompare = useCallback((nv: Niivue | undefined) => setInstances((i) => ({ ...i, compare: nv })), []);

  // Two series side by side share the crosshair (and the 3D view): the pane that has the focus drives the other.
  useEffect(() => {
    const { primary, compare } = instances;
    if (!primary || !compare) return;
    const sync = { '2d': linked, '3d': linked };
    primary.broadcastTo(linked ? compare : [], sync);
    compare.broadcastTo(linked ? primary : [], sync);
    return () => {
      primary.broadcastTo([]);
      compare.broadcastTo([]);
    };
  }, [instances, linked]);

  if (redirect) return <Navigate to={paths.datasets.getHref()} replace />;
  if (isLoading) return <PageSpinner label="Loading dataset..." />;
  if (notFound || error || !dataset) {
    return (
      <Center minH="100vh">
        <EmptyBlock
          title="Error loading dataset"
          description={notFound ? 'The requested dataset could not be found.' : errorMessage(error)}
        >
          <Button asChild variant="outline">
            <Link to={paths.datasets.getHref()}>
              <LuArrowLeft /> Back to Datasets
            </Link>
          </Button>
        </EmptyBlock>
      </Center>
    );
  }

  const physician = physicianLastName(dataset.orderingPhysician);
  return (
    <Flex direction="column" h="100vh" ref={containerRef} bg="bg">
      <Flex as="header" align="center" gap="3" px="4" py="2" borderBottomWidth="1px" wrap="wrap">
        <Button asChild variant="ghost" size="sm">
          <Link to={paths.datasets.getHref()}>
            <LuArrowLeft /> Back to Datasets
          </Link>
        </Button>
        <Stack gap="0" flex="1" minW="48">
          <Heading size="md" data-testid="visualizer-title">
            {dataset.studyDescription}
          </Heading>
          <Text fontSize="sm" color="fg.muted">
            Patient {dataset.patientAlias}
            {dataset.hospitalName ? ` · ${dataset.hospitalName}` : ''} · {dataset.department}
            {physician ? ` · Dr. ${physician}` : ''}
          </Text>
        </Stack>
        <HStack wrap="wrap">
          <Select
            size="sm"
            aria-label="Layout"
            width="40"
            value={layout}
            onChange={(v) => setLayout(v as Layout)}
            options={[
              { value: 'multiplanar', label: 'Multiplanar' },
              { value: 'axial', label: 'Axial' },
              { value: 'coronal', label: 'Coronal' },
              { value: 'sagittal', label: 'Sagittal' },
              { value: 'render', label: '3D render' },
            ]}
          />
          <HStack gap="1" role="group" aria-label="Tool">
            {(
              [
                ['crosshair', 'Crosshair'],
                ['distance', 'Distance'],
                ['angle', 'Angle'],
              ] as const
            ).map(([value, label]) => (
              <Button
                key={value}
                size="sm"
                variant={tool === value ? 'solid' : 'outline'}
                aria-pressed={tool === value}
                onClick={() => setTool(value)}
              >
                {label}
              </Button>
            ))}
            <Button
              size="sm"
              variant="ghost"
              onClick={() => {
                instances.primary?.clearAllMeasurements();
                instances.compare?.clearAllMeasurements();
                setMeasurement(undefined);
              }}
            >
              Clear
            </Button>
          </HStack>
          <IconButton
            aria-label={showInfo ? 'Hide info panel' : 'Show info panel'}
            size="sm"
            variant={showInfo ? 'solid' : 'outline'}
            onClick={() => setShowInfo((s) => !s)}
          >
            <LuInfo />
          </IconButton>
          <IconButton
            aria-label={fullScreen ? 'Exit full screen' : 'Full screen'}
            size="sm"
            variant="outline"
            onClick={() => void toggleFullScreen()}
            title="Full screen (F11)"
          >
            {fullScreen ? <LuMinimize /> : <LuMaximize />}
          </IconButton>
        </HStack>
      </Flex>
      <Flex flex="1" minH="0" direction={{ base: 'column', md: 'row' }}>
        {grouped.volumes.length > 0 && (
          <Box
            as="nav"
            aria-label="Series"
            w={{ base: 'full', md: '60' }}
            borderRightWidth={{ md: '1px' }}
            borderBottomWidth={{ base: '1px', md: '0' }}
            p="2"
            overflowY="auto"
          >
            <Stack gap="1">
              <Text fontWeight="semibold" fontSize="sm" px="1">
                Series ({grouped.volumes.length})
              </Text>
              {grouped.volumes.map((v, i) => (
                <HStack key={v.volume.id} gap="1" data-testid="series-item" data-series-id={v.volume.id}>
                  <Button
                    size="xs"
                    flex="1"
                    minW="0"
                    justifyContent="flex-start"
                    variant={i === seriesIndex ? 'solid' : 'ghost'}
                    aria-pressed={i === seriesIndex}
                    title={v.volume.label}
                    onClick={() => {
                      setSeriesIndex(i);
                      if (compareIndex === i) setCompareIndex(undefined);
                    }}
                  >
                    <Text truncate>{v.volume.label}</Text>
                    <Text as="span" color="fg.muted" fontSize="2xs" ms="auto">
                      {seriesKind(v.volume) === 'OTHER' ? '' : seriesKind(v.volume).replace('_', ' ')}
                    </Text>
                  </Button>
                  <IconButton
                    size="xs"
                    variant={i === compareIndex ? 'solid' : 'ghost'}
                    aria-label={`Compare with ${v.volume.label}`}
                    aria-pressed={i === compareIndex}
                    disabled={i === seriesIndex}
                    onClick={() => setCompareIndex(i === compareIndex ? undefined : i)}
                  >
                    <LuColumns2 />
                  </IconButton>
                </HStack>
              ))}
              {compareEntry && (
                <Switch.Root size="sm" checked={linked} onCheckedChange={(e) => setLinked(e.checked)} px="1" pt="2">
                  <Switch.HiddenInput aria-label="Link crosshairs" />
                  <Switch.Control />
                  <Switch.Label>Link crosshairs</Switch.Label>
                </Switch.Root>
              )}
            </Stack>
          </Box>
        )}
        <Box flex="1" minH="0" minW="0">
          {viewerError || assetsError ? (
            <Center h="full" data-testid="viewer-error">
              <EmptyBlock title="Error loading dataset" description={viewerError ?? errorMessage(assetsError)} />
            </Center>
          ) : !assets ? (
            <PageSpinner label="Loading assets..." />
          ) : !entry ? (
            <Center h="full">
              <EmptyBlock
                title="Nothing to display yet"
                description={
                  dataset.status === 'COMPLETE'
                    ? 'This dataset has no volume to display.'
                    : `The dataset is still being processed (${dataset.status}).`
                }
              />
            </Center>
          ) : (
            <Flex h="full" gap="1px" bg="border">
              <ViewerPane
                role="primary"
                entry={entry}
                surface={grouped.surface}
                layers={layers}
                layout={layout}
                tool={tool}
                onInstance={onPrimary}
                onMeasurement={setMeasurement}
                onError={onViewerError}
              />
              {compareEntry && (
                <ViewerPane
                  role="compare"
                  entry={compareEntry}
                  layers={NO_LAYERS}
                  layout={layout}
                  tool={tool}
                  onInstance={onCompare}
                  onMeasurement={setMeasurement}
                  onError={onViewerError}
                />
              )}
            </Flex>
          )}
        </Box>
        {showInfo && entry && (
          <Box
            as="aside"
            w={{ base: 'full', md: '72' }}
            borderLeftWidth={{ md: '1px' }}
            borderTopWidth={{ base: '1px', md: '0' }}
            p="4"
            overflowY="auto"
            aria-label="Info panel"
          >
            <Stack gap="4">
              <Stack gap="1">
                <Text fontWeight="semibold">Series</Text>
                <Text fontSize="sm">{entry.volume.label}</Text>
                {typeof entry.volume.metadata.classifiedType === 'string' && (
                  <Text fontSize="sm" color="fg.muted">
                    Classified as {entry.volume.metadata.classifiedType}
                  </Text>
                )}
              </Stack>
              <Stack gap="1">
                <Text fontWeight="semibold">Measurement</Text>
                <Text fontSize="sm" data-testid="measurement-readout">
                  {measurement
                    ? measurement.kind === 'distance'
                      ? `Distance ${measurement.value.toFixed(1)} mm`
                      : `Angle ${measurement.value.toFixed(1)}°`
                    : 'None yet'}
                </Text>
              </Stack>
              <Stack gap="2">
                <Text fontWeight="semibold">Layers</Text>
                <LayerSwitch
                  label="FA map"
                  available={!!entry.fa}
                  checked={layers.fa}
                  onChange={(v) => setLayers((l) => ({ ...l, fa: v, colorFa: v ? false : l.colorFa }))}
                />
                <LayerSwitch
                  label="Colour FA map"
                  available={!!entry.colorFa}
                  checked={layers.colorFa}
                  onChange={(v) => setLayers((l) => ({ ...l, colorFa: v, fa: v ? false : l.fa }))}
                />
                <LayerSwitch
                  label="Head surface"
                  available={!!grouped.surface}
                  checked={layers.surface}
                  onChange={(v) => setLayers((l) => ({ ...l, surface: v }))}
                />
                <LayerSwitch
                  label="Tractography"
                  available={!!entry.tracts}
                  checked={layers.tracts}
                  onChange={(v) => setLayers((l) => ({ ...l, tracts: v }))}
                />
              </Stack>
              {entry.tracts && typeof entry.tracts.metadata.streamlines === 'number' && (
                <Text fontSize="sm" color="fg.muted">
                  {entry.tracts.metadata.streamlines} streamlines
                </Text>
              )}
              <Stack gap="1" fontSize="sm" color="fg.muted">
                <Text>
                  Click or drag to move the crosshair; scroll, the arrow keys or PageUp/PageDown (ten slices) change
                  slice; right-drag adjusts the window. Distance and Angle measure with the left button (an angle: draw
                  the first line, then click its second end). F11 toggles full screen.
                </Text>
              </Stack>
            </Stack>
          </Box>
        )}
      </Flex>
    </Flex>
  );
}

function LayerSwitch({
  label,
  available,
  checked,
  onChange,
}: {
  label: string;
  available: boolean;
  checked: boolean;
  onChange(v: boolean): void;
}) {
  return (
    <Switch.Root checked={checked && available} disabled={!available} onCheckedChange={(e) => onChange(e.checked)}>
      <Switch.HiddenInput aria-label={label} />
      <Switch.Control />
      <Switch.Label>
        {label}
        {!available && ' (not available)'}
      </Switch.Label>
    </Switch.Root>
  );
}
