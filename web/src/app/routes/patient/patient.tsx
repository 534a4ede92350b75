import { Badge, Box, Button, Center, Flex, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { LuCamera, LuDownload } from 'react-icons/lu';
import { useParams } from 'react-router-dom';
import type { ProcessedAsset } from '#shared/schemas/api/datasets.ts';
import type { PatientSession } from '#shared/schemas/api/shares.ts';
import { errorMessage } from '#web/lib/api-error.ts';
import { patientApi } from '#web/features/shares/api/shares-api.ts';
import { PatientGate } from '#web/features/shares/components/patient-gate.tsx';
import { NiivueViewer, type Layers } from '#web/features/visualizer/components/niivue-viewer.tsx';
import { groupViewerAssets } from '#web/features/visualizer/utils/viewer-assets.ts';

/** Asset URLs live a minute; the page asks again through its session well before, and learns of a revoke at once. */
const REFRESH_MS = 15_000;
const NO_LAYERS: Layers = { fa: false, colorFa: false, surface: false, tracts: false };

type StudyAsset = { id: string; type: string; name: string; url?: string; downloadable: boolean };

const toProcessed = (a: StudyAsset): ProcessedAsset => ({
  id: a.id,
  datasetId: '',
  type: a.type as ProcessedAsset['type'],
  label: a.name,
  byteSize: 0,
  mimeType: '',
  metadata: {},
  createdAt: '',
  ...(a.url ? { url: a.url } : {}),
});

/** /p/{token}: the patient's page (docs/screens.md#patient-page), public, guarded by a one-time code. */
export function PatientShareRoute() {
  const { token = '' } = useParams();
  const [session, setSession] = useState<PatientSession>();
  if (!session) return <PatientGate token={token} onOpen={setSession} />;
  return <PatientStudy session={session} />;
}

function PatientStudy({ session }: { session: PatientSession }) {
  const [assets, setAssets] = useState<StudyAsset[]>();
  const [closed, setClosed] = useState<string>();
  const [viewerError, setViewerError] = useState<string>();
  const frame = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let live = true;
    const load = async () => {
      try {
        const study = await patientApi.study(session.session);
        if (live) setAssets((current) => current ?? study.assets);
      } catch (e) {
        // Revoked, expired or a lapsed session: the viewer goes away with its URLs.
        if (live) setClosed(errorMessage(e));
      }
    };
    void load();
    const timer = window.setInterval(load, REFRESH_MS);
    return () => {
      live = false;
      window.clearInterval(timer);
    };
  }, [session.session]);

  // Only a volume given with a URL (the copy marked for the share) is viewable; a downloadable file has none.
  const entry = useMemo(
    () => (assets ? groupViewerAssets(assets.filter((a) => a.url).map(toProcessed)).volumes[0] : undefined),
    [assets],
  );

  if (closed)
    return (
      <Center minH="80vh" p="4">
        <Stack align="center" gap="2" data-testid="patient-closed">
          <Heading size="md">This study is no longer available</Heading>
          <Text>{closed}</Text>
        </Stack>
      </Center>
    );

  const screenshot = () => {
    const canvas = frame.current?.querySelector('canvas');
    if (!canvas) return;
    (canvas as HTMLCanvasElement & { niivue?: { drawScene(): void } }).niivue?.drawScene();
    const out = document.createElement('canvas');
    out.width = canvas.width;
    out.height = canvas.height;
    const ctx = out.getContext('2d');
    if (!ctx) return;
    ctx.drawImage(canvas, 0, 0);
    if (session.watermark) drawWatermark(ctx, out.width, out.height, session.watermark);
    const link = document.createElement('a');
    link.download = `study-${session.studyDate}.png`;
    link.href = out.toDataURL('image/png');
    link.click();
  };

  const download = async (assetId: string) => {
    try {
      const { url } = await patientApi.download(session.session, assetId);
      window.location.assign(url);
    } catch (e) {
      setClosed(errorMessage(e));
    }
  };

  return (
    <Stack gap="3" p="4" h="100vh">
      <Flex justify="space-between" align="center" wrap="wrap" gap="2">
        <Stack gap="0">
          <Heading size="lg">Your imaging study</Heading>
          <Text color="fg.muted">
            {session.studyType} · {session.studyDate}
          </Text>
        </Stack>
        <HStack>
          {session.scopes.includes('screenshots') && (
            <Button size="sm" variant="outline" onClick={screenshot} disabled={!entry} data-testid="patient-screenshot">
              <LuCamera /> Screenshot
            </Button>
          )}
          {session.allowDownloads &&
            assets
              ?.filter((a) => a.downloadable)
              .map((a) => (
                <Button key={a.id} size="sm" variant="outline" onClick={() => void download(a.id)}>
                  <LuDownload /> {a.name}
                </Button>
              ))}
        </HStack>
      </Flex>
      <Box ref={frame} position="relative" flex="1" minH="400px" bg="black" data-testid="patient-viewer">
        {entry ? (
          <NiivueViewer
            entry={entry}
            layers={NO_LAYERS}
            layout="multiplanar"
            tool="crosshair"
            onError={setViewerError}
          />
        ) : (
          <Center h="full">
            <Text color="white">{assets ? 'No images to show.' : 'Loading...'}</Text>
          </Center>
        )}
        {session.watermark && <Watermark text={session.watermark} />}
      </Box>
      {viewerError && <Badge colorPalette="red">{viewerError}</Badge>}
    </Stack>
  );
}

/** The watermark over every view: recipient, date and share id, repeated across the frame, not clickable. */
function Watermark({ text }: { text: string }) {
  return (
    <Box
      position="absolute"
      inset="0"
      pointerEvents="none"
      overflow="hidden"
      data-testid="patient-watermark"
      aria-label={`Watermark: ${text}`}
    >
      {Array.from({ length: 12 }, (_, i) => (
        <Text
          key={i}
          position="absolute"
          top={`${(i % 6) * 17 + 4}%`}
          left={`${Math.floor(i / 6) * 50 + (i % 2) * 10}%`}
          transform="rotate(-20deg)"
          color="whiteAlpha.500"
          fontSize="sm"
          whiteSpace="nowrap"
          userSelect="none"
        >
          {text}
        </Text>
      ))}
    </Box>
  );
}

/** Draws the same watermark into a screenshot, so the image carries it wherever it goes. */
function drawWatermark(ctx: CanvasRenderingContext2D, width: number, height: number, text: string) {
  ctx.save();
  ctx.fillStyle = 'rgba(255,255,255,0.5)';
  ctx.font = `${Math.max(12, Math.round(width / 50))}px sans-serif`;
  for (let y = 40; y < height; y += Math.max(80, height / 6)) {
    for (let x = 10; x < width; x += Math.max(300, width / 2)) {
      ctx.save();
      ctx.translate(x, y);
      ctx.rotate(-0.35);
      ctx.fillText(text, 0, 0);
      ctx.restore();
    }
  }
  ctx.restore();
}
