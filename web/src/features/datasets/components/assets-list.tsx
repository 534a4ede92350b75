import { Badge, Button, HStack, Stack, Table, Text } from '@chakra-ui/react';
import { LuDownload } from 'react-icons/lu';
import type { ProcessedAsset, Series } from '#shared/schemas/api/datasets.ts';
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
  if (assets.length === 0) return <Text color="fg.muted">No processed assets yet.</Text>;
  const seriesName = (id?: string) => {
    const s = series.find((x) => x.id === id);
    return s ? `#${s.seriesNumber} ${s.description}` : 'Whole dataset';
  };
  return (
    <Table.Root size="sm" aria-label="Assets">
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeader>Asset</Table.ColumnHeader>
          <Table.ColumnHeader>Type</Table.ColumnHeader>
          <Table.ColumnHeader>Series</Table.ColumnHeader>
          <Table.ColumnHeader>Size</Table.ColumnHeader>
          <Table.ColumnHeader />
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {assets.map((a) => (
          <Table.Row key={a.id} data-testid="asset-row" data-asset-type={a.type}>
            <Table.Cell>
              <Stack gap="0">
                <Text>{a.label}</Text>
                <Text fontSize="xs" color="fg.muted">
                  {a.mimeType}
                </Text>
              </Stack>
            </Table.Cell>
            <Table.Cell>
              <Badge>{a.type}</Badge>
            </Table.Cell>
            <Table.Cell>{seriesName(a.seriesId)}</Table.Cell>
            <Table.Cell>{formatBytes(a.byteSize)}</Table.Cell>
            <Table.Cell>
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
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}
