import { Badge, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { LuDownload } from 'react-icons/lu';
import type { ProcessedAsset, Series } from '#shared/schemas/api/datasets.ts';
import { DataTable } from '#web/components/ui/data-table.tsx';
import { formatBytes } from '#web/lib/format.ts';

const EXTENSIONS: Record<string, string> = {
  'application/pdf': '.pdf',
  'application/gzip': '.nii.gz',
  'image/png': '.png',
};

/** A file name for the browser's download: the label with the type's usual extension. */
function downloadName(asset: ProcessedAsset): string {
  const ext =
    asset.type === 'TRACT'
      ? '.trk'
      : asset.type === 'SURFACE'
        ? `.${typeof asset.metadata.format === 'string' ? asset.metadata.format : 'mz3'}`
        : (EXTENSIONS[asset.mimeType] ?? '');
  return `${asset.label.replace(/[^\w.-]+/g, '_')}${ext}`;
}

/** Processed assets with download links (presigned, short-lived: the list is fetched fresh for the page). */
export function AssetsList({ assets, series }: { assets: ProcessedAsset[]; series: Series[] }) {
  const seriesName = (id?: string) => {
    const s = series.find((x) => x.id === id);
    return s ? `#${s.seriesNumber} ${s.description}` : 'Whole dataset';
  };
  return (
    <DataTable
      aria-label="Assets"
      rows={assets}
      rowKey={(a) => a.id}
      rowProps={(a) => ({ 'data-testid': 'asset-row', 'data-asset-type': a.type })}
      empty={<Text color="fg.muted">No processed assets yet.</Text>}
      columns={[
        {
          key: 'asset',
          header: 'Asset',
          cell: (a) => (
            <Stack gap="0">
              <Text>{a.label}</Text>
              <Text fontSize="xs" color="fg.muted">
                {a.mimeType}
              </Text>
            </Stack>
          ),
        },
        { key: 'type', header: 'Type', cell: (a) => <Badge>{a.type}</Badge> },
        { key: 'series', header: 'Series', cell: (a) => seriesName(a.seriesId) },
        { key: 'size', header: 'Size', cell: (a) => formatBytes(a.byteSize) },
        {
          key: 'download',
          cell: (a) => (
            <HStack justify="flex-end">
              {a.url ? (
                <Button asChild size="xs" variant="outline">
                  <a
                    href={a.url}
                    download={downloadName(a)}
                    rel="noreferrer"
                    data-testid={`download-${a.type.toLowerCase()}`}
                  >
                    <LuDownload /> Download
                  </a>
                </Button>
              ) : (
                <Text fontSize="xs" color="fg.muted">
                  Not available
                </Text>
              )}
            </HStack>
          ),
        },
      ]}
    />
  );
}
